import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  EMPTY_PANEL_CONFIG,
  IDEMPOTENCY_HEADER,
  MESSAGES,
  MESSAGING_TEXTS,
  NOTICE_MESSAGES,
  PAGE_TITLES,
  TEST_MESSAGE_TEXTS,
  panelConfigForm,
  type PanelConfig,
  SIGN_IN_MESSAGES,
} from '@kanak/contract';
import { queryClient } from '../../lib/query-client';
import { deferred, fakeServer, type Reply } from '../../test/fake-server';
import { renderApp, signedInAs } from '../../test/render';

const texts = MESSAGING_TEXTS;
const getPath = API_PATHS.panelConfig;
const savePath = API_PATHS.panelSetup;

const saved: PanelConfig = {
  instanceid: 'INST-7781',
  token: 'tok_9f2c1e77aa',
  panel: 2,
  phone: '9820012345',
};

/** A fake of the panel API that keeps what was saved, like the server. */
function panelServer(initial: PanelConfig = saved) {
  let stored = { ...initial };
  const server = fakeServer()
    .on('GET', getPath, () => ({ status: 200, body: { success: true, data: stored } }))
    .on('POST', savePath, (request) => {
      const { formData } = request.body as { formData: PanelConfig };
      stored = { ...formData };
      return { status: 200, body: { success: true, message: MESSAGES.panelSaved } };
    });
  return {
    server,
    /** As if someone else saved meanwhile. */
    replaceStored: (next: PanelConfig) => {
      stored = next;
    },
  };
}

async function openScreen() {
  signedInAs('meera');
  renderApp('/home/message-configuration');
  await screen.findByRole('heading', { name: PAGE_TITLES.messageConfiguration, level: 1 });
  return userEvent.setup();
}

const instanceId = () => screen.getByLabelText(texts.instanceId);
const token = () => screen.getByLabelText(texts.token);
const panel = () => screen.getByRole('combobox', { name: texts.panel });
const phone = () => screen.getByLabelText(texts.phone);
const saveButton = () => screen.getByRole('button', { name: new RegExp(`${texts.save}$`) });
const revertButton = () => screen.getByRole('button', { name: texts.revert });
const alertWith = async (text: string) =>
  (await screen.findByText(text, { selector: '.MuiAlert-message' })).closest('.MuiAlert-root');

async function choosePanel(user: ReturnType<typeof userEvent.setup>, choice: number) {
  await user.click(panel());
  const listbox = await screen.findByRole('listbox');
  await user.click(within(listbox).getByRole('option', { name: texts.panelOption(choice) }));
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
}

const expectForm = async (config: PanelConfig) => {
  await waitFor(() => expect(instanceId()).toHaveValue(config.instanceid));
  expect(token()).toHaveValue(config.token);
  // An empty MUI select shows a zero-width space.
  expect(panel().textContent?.replace('\u200b', '')).toBe(
    config.panel ? texts.panelOption(config.panel) : '',
  );
  expect(phone()).toHaveValue(config.phone);
};

beforeEach(() => queryClient.clear());
afterEach(() => queryClient.clear());

describe('Message Configuration', () => {
  it('loads the saved configuration into the four fields; the token is hidden', async () => {
    const { server } = panelServer();
    await openScreen();

    await expectForm(saved);
    expect(token()).toHaveAttribute('type', 'password');
    expect(server.sent('GET', getPath)).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('the show/hide button reveals and hides the token', async () => {
    panelServer();
    const user = await openScreen();
    await expectForm(saved);

    await user.click(screen.getByRole('button', { name: texts.showToken }));
    expect(token()).toHaveAttribute('type', 'text');
    expect(token()).toHaveValue(saved.token);

    await user.click(screen.getByRole('button', { name: texts.hideToken }));
    expect(token()).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: texts.showToken })).toBeVisible();
  });

  it('offers Panel 1, Panel 2 and Panel 3, each named with its provider', async () => {
    panelServer(EMPTY_PANEL_CONFIG);
    const user = await openScreen();
    await waitFor(() => expect(saveButton()).toBeEnabled());

    await user.click(panel());
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Panel 1 — UltraMsg',
      'Panel 2 — Green API',
      "Panel 3 — your reseller's panel",
    ]);
  });

  it('never saved: empty fields, no alert', async () => {
    panelServer(EMPTY_PANEL_CONFIG);
    await openScreen();

    await waitFor(() => expect(saveButton()).toBeEnabled());
    await expectForm(EMPTY_PANEL_CONFIG);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each<[string, Reply]>([
    ['a refusal (4xx)', { status: 403, body: { success: false, message: 'Not yours.' } }],
    ['an answer with success false', { status: 200, body: { success: false } }],
  ])('load: %s shows the warning "Failed to get panel configuration"', async (_case, reply) => {
    fakeServer().on('GET', getPath, reply);
    await openScreen();

    expect(await alertWith(MESSAGES.panelLoadRefused)).toHaveClass('MuiAlert-colorWarning');
    expect(screen.queryByText(MESSAGES.panelLoadFailed)).not.toBeInTheDocument();
    expect(instanceId()).toHaveValue('');
  });

  it('load: a failure (network or 5xx) shows the error "Error in getting panel configuration."', async () => {
    const server = fakeServer().on('GET', getPath, { status: 503, body: { success: false } });
    await openScreen();

    expect(await alertWith(MESSAGES.panelLoadFailed)).toHaveClass('MuiAlert-colorError');
    expect(screen.queryByText(MESSAGES.panelLoadRefused)).not.toBeInTheDocument();
    // A GET meeting a 5xx is retried 3 times before it fails.
    expect(server.sent('GET', getPath)).toHaveLength(4);
  });

  it('SAVE sends { formData } and shows "Panel configuration updated successfully."', async () => {
    const { server } = panelServer(EMPTY_PANEL_CONFIG);
    const user = await openScreen();
    await waitFor(() => expect(saveButton()).toBeEnabled());

    await user.type(instanceId(), '  INST-42 ');
    await user.type(token(), 'secret-token');
    await choosePanel(user, 3);
    await user.type(phone(), '9876543210');
    await user.click(saveButton());

    expect(await alertWith(MESSAGES.panelSaved)).toHaveClass('MuiAlert-colorSuccess');
    const [request] = server.sent('POST', savePath);
    expect(request?.body).toEqual({
      formData: { instanceid: 'INST-42', token: 'secret-token', panel: 3, phone: '9876543210' },
    });
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    // The form shows what was saved.
    expect(instanceId()).toHaveValue('INST-42');
  });

  it('Enter in a field saves', async () => {
    const { server } = panelServer();
    const user = await openScreen();
    await expectForm(saved);

    await user.clear(phone());
    await user.type(phone(), '9000000001{Enter}');

    await alertWith(MESSAGES.panelSaved);
    expect(server.sent('POST', savePath)[0]?.body).toEqual({
      formData: { ...saved, phone: '9000000001' },
    });
  });

  it('checks the fields before sending: each problem shows under its field', async () => {
    const { server } = panelServer(EMPTY_PANEL_CONFIG);
    const user = await openScreen();
    await waitFor(() => expect(saveButton()).toBeEnabled());

    await user.type(phone(), '98765');
    await user.click(saveButton());

    // The contract's own messages, field by field.
    const issues = panelConfigForm.safeParse({ ...EMPTY_PANEL_CONFIG, phone: '98765' }).error
      ?.issues;
    const problems = Object.fromEntries((issues ?? []).map((i) => [i.path[0], i.message]));
    expect(Object.keys(problems).sort()).toEqual(['instanceid', 'panel', 'phone', 'token']);
    await waitFor(() => expect(instanceId()).toHaveAccessibleDescription(problems.instanceid));
    expect(token()).toHaveAccessibleDescription(problems.token);
    expect(phone()).toHaveAccessibleDescription(problems.phone);
    expect(screen.getByText(problems.panel as string)).toBeVisible();
    expect(instanceId()).toHaveAttribute('aria-invalid', 'true');
    expect(server.sent('POST', savePath)).toHaveLength(0);
  });

  it('limits the inputs: 200 characters for instance id and token, 10 for the phone', async () => {
    panelServer();
    await openScreen();
    await expectForm(saved);

    expect(instanceId()).toHaveAttribute('maxlength', '200');
    expect(token()).toHaveAttribute('maxlength', '200');
    expect(phone()).toHaveAttribute('maxlength', '10');
    expect(phone()).toHaveAttribute('inputmode', 'numeric');
  });

  it('save: a refusal (4xx) shows the warning "Failed to update panel configuration" with the server’s reason', async () => {
    const { server } = panelServer();
    server.on('POST', savePath, {
      status: 400,
      body: { success: false, message: 'Token must be at most 200 characters.' },
    });
    const user = await openScreen();
    await expectForm(saved);
    await user.click(saveButton());

    const warning = await alertWith(
      `${MESSAGES.panelSaveRefused}: Token must be at most 200 characters.`,
    );
    expect(warning).toHaveClass('MuiAlert-colorWarning');
    expect(screen.queryByText(MESSAGES.panelSaved)).not.toBeInTheDocument();
  });

  it('save: success false without a reason shows only "Failed to update panel configuration"', async () => {
    const { server } = panelServer();
    server.on('POST', savePath, { status: 200, body: { success: false } });
    const user = await openScreen();
    await expectForm(saved);
    await user.click(saveButton());

    expect(await alertWith(MESSAGES.panelSaveRefused)).toHaveClass('MuiAlert-colorWarning');
  });

  it.each<[string, Reply, string]>([
    [
      'a server failure (5xx)',
      { status: 500, body: { success: false, message: 'boom' } },
      MESSAGES.panelSaveFailed,
    ],
    // The fixed text first, then that the server could not be reached.
    [
      'a lost connection',
      'network-error',
      `${MESSAGES.panelSaveFailed} ${SIGN_IN_MESSAGES.serverUnreachable}`,
    ],
  ])(
    'save: %s shows the error "Error in updating panel configuration"',
    async (_case, reply, expected) => {
      const { server } = panelServer();
      server.on('POST', savePath, () => reply);
      const user = await openScreen();
      await expectForm(saved);
      await user.click(saveButton());

      expect(await alertWith(expected)).toHaveClass('MuiAlert-colorError');
      expect(screen.queryByText(/boom/)).not.toBeInTheDocument();
    },
  );

  it('disables SAVE and REVERT while loading and while saving', async () => {
    const load = deferred();
    const save = deferred();
    fakeServer().on('GET', getPath, load.handler).on('POST', savePath, save.handler);
    const user = await openScreen();

    expect(saveButton()).toBeDisabled();
    expect(revertButton()).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: texts.loading })).toBeVisible();
    load.release({ status: 200, body: { success: true, data: saved } });
    await expectForm(saved);
    expect(saveButton()).toBeEnabled();
    expect(revertButton()).toBeEnabled();

    await user.click(saveButton());
    await waitFor(() => expect(saveButton()).toBeDisabled());
    expect(revertButton()).toBeDisabled();
    save.release({ status: 200, body: { success: true, message: MESSAGES.panelSaved } });
    await alertWith(MESSAGES.panelSaved);
    expect(saveButton()).toBeEnabled();
    expect(revertButton()).toBeEnabled();
  });

  it('REVERT reloads the saved configuration, dropping unsaved edits', async () => {
    const { server } = panelServer();
    const user = await openScreen();
    await expectForm(saved);

    await user.clear(instanceId());
    await user.type(instanceId(), 'UNSAVED');
    await choosePanel(user, 1);
    await user.clear(phone());
    await user.click(revertButton());

    await expectForm(saved);
    expect(server.sent('GET', getPath)).toHaveLength(2);
    expect(server.sent('POST', savePath)).toHaveLength(0);
  });

  it('REVERT shows what the server holds now, and returns to the last SAVE', async () => {
    const { replaceStored } = panelServer();
    const user = await openScreen();
    await expectForm(saved);

    const elsewhere: PanelConfig = { ...saved, instanceid: 'INST-OTHER', panel: 1 };
    replaceStored(elsewhere);
    await user.click(revertButton());
    await expectForm(elsewhere);

    await user.clear(phone());
    await user.type(phone(), '9111111111');
    await user.click(saveButton());
    await alertWith(MESSAGES.panelSaved);
    await user.clear(phone());
    await user.type(phone(), '9222222222');
    await user.click(revertButton());
    await waitFor(() => expect(phone()).toHaveValue('9111111111'));
  });

  it('REVERT that fails keeps the edits and shows the load alert', async () => {
    const { server } = panelServer();
    const user = await openScreen();
    await expectForm(saved);

    server.on('GET', getPath, { status: 400, body: { success: false, message: 'No.' } });
    await user.clear(instanceId());
    await user.type(instanceId(), 'EDITED');
    await user.click(revertButton());

    expect(await alertWith(MESSAGES.panelLoadRefused)).toHaveClass('MuiAlert-colorWarning');
    expect(instanceId()).toHaveValue('EDITED');
  });

  describe('Send test message', () => {
    const testButton = () =>
      screen.getByRole('button', { name: new RegExp(`${TEST_MESSAGE_TEXTS.send}$`) });
    const result = () => screen.getByRole('status', { name: TEST_MESSAGE_TEXTS.result });

    it('sends one message through the saved panel and shows how it went', async () => {
      const { server } = panelServer();
      const answer = deferred();
      server.on('POST', API_PATHS.testMessage, answer.handler);
      const user = await openScreen();
      await expectForm(saved);
      await waitFor(() => expect(testButton()).toBeEnabled());
      expect(screen.queryByText(TEST_MESSAGE_TEXTS.needsSave)).not.toBeInTheDocument();

      await user.click(testButton());
      await waitFor(() => expect(testButton()).toBeDisabled());
      expect(
        within(testButton()).getByRole('progressbar', { name: TEST_MESSAGE_TEXTS.sending }),
      ).toBeVisible();
      const [request] = server.sent('POST', API_PATHS.testMessage);
      expect(request?.body).toEqual({});
      expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
      answer.release({
        status: 200,
        body: {
          success: true,
          message: NOTICE_MESSAGES.testMessageSent,
          data: { sent: true, status: 200, answer: NOTICE_MESSAGES.providerAccepted },
        },
      });

      await waitFor(() => expect(result()).toHaveClass('MuiAlert-colorSuccess'));
      expect(result()).toHaveTextContent(NOTICE_MESSAGES.testMessageSent);
      // Words a jeweller reads, not the provider's status code.
      expect(result()).not.toHaveTextContent(/HTTP|200/);
      expect(result()).toHaveTextContent(NOTICE_MESSAGES.providerAccepted);
      expect(testButton()).toBeEnabled();
    });

    it('a provider that refused: "not sent", its status and the reason', async () => {
      const { server } = panelServer();
      server.on('POST', API_PATHS.testMessage, {
        status: 200,
        body: {
          success: true,
          data: {
            sent: false,
            status: 401,
            answer: NOTICE_MESSAGES.providerRefused(401),
          },
        },
      });
      const user = await openScreen();
      await waitFor(() => expect(testButton()).toBeEnabled());
      await user.click(testButton());

      await waitFor(() => expect(result()).toHaveClass('MuiAlert-colorError'));
      expect(result()).toHaveTextContent(TEST_MESSAGE_TEXTS.notSent);
      expect(result()).not.toHaveTextContent(/HTTP status/);
      expect(result()).toHaveTextContent(NOTICE_MESSAGES.providerRefused(401));
    });

    it('a provider that never answered: no status, the reason', async () => {
      const { server } = panelServer();
      server.on('POST', API_PATHS.testMessage, {
        status: 200,
        body: {
          success: true,
          data: { sent: false, status: null, answer: NOTICE_MESSAGES.providerTimeout(10) },
        },
      });
      const user = await openScreen();
      await waitFor(() => expect(testButton()).toBeEnabled());
      await user.click(testButton());

      await waitFor(() => expect(result()).toHaveTextContent(NOTICE_MESSAGES.providerTimeout(10)));
      expect(result()).not.toHaveTextContent(/HTTP status/);
    });

    it('a refusal of the server shows its words; no result panel', async () => {
      const { server } = panelServer();
      server.on('POST', API_PATHS.testMessage, {
        status: 409,
        body: { success: false, message: NOTICE_MESSAGES.panelHasNoUrl(3) },
      });
      const user = await openScreen();
      await waitFor(() => expect(testButton()).toBeEnabled());
      await user.click(testButton());

      expect(await alertWith(NOTICE_MESSAGES.panelHasNoUrl(3))).toHaveClass('MuiAlert-colorError');
      expect(screen.queryByRole('status', { name: TEST_MESSAGE_TEXTS.result })).toBeNull();
    });

    it('is disabled until a configuration is saved, and says so', async () => {
      const { server } = panelServer(EMPTY_PANEL_CONFIG);
      const user = await openScreen();
      await waitFor(() => expect(saveButton()).toBeEnabled());

      expect(testButton()).toBeDisabled();
      expect(testButton()).toHaveAccessibleDescription(TEST_MESSAGE_TEXTS.needsSave);

      await user.type(instanceId(), 'INST-42');
      await user.type(token(), 'secret-token');
      await choosePanel(user, 1);
      await user.type(phone(), '9876543210');
      // Typed is not saved: the test message uses what the server holds.
      expect(testButton()).toBeDisabled();
      await user.click(saveButton());
      await alertWith(MESSAGES.panelSaved);

      await waitFor(() => expect(testButton()).toBeEnabled());
      expect(screen.queryByText(TEST_MESSAGE_TEXTS.needsSave)).not.toBeInTheDocument();
      expect(server.sent('POST', API_PATHS.testMessage)).toHaveLength(0);
    });
  });
});
