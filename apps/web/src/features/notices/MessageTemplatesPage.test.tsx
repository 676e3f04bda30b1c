import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  DEFAULT_NOTICE_TEXTS,
  IDEMPOTENCY_HEADER,
  MESSAGES,
  NOTICE_EVENTS,
  NOTICE_EVENT_LABELS,
  NOTICE_MESSAGES,
  NOTICE_PLACEHOLDERS,
  PAGE_TITLES,
  SIDEBAR_LABELS,
  TEMPLATE_TEXTS,
  saveNoticeTemplateRequest,
  type NoticeEvent,
  type NoticeTemplate,
} from '@kanak/contract';
import { deferred, fakeServer, testOwner, type Reply } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const texts = TEMPLATE_TEXTS;
const label = (event: NoticeEvent) => NOTICE_EVENT_LABELS[event];

const TAMIL = 'அன்புள்ள {name}, உங்களுக்கு {points} புள்ளிகள் கிடைத்தன. இருப்பு {balance} புள்ளிகள்.';
const TAMIL_FILLED = 'அன்புள்ள Lakshmi Iyer, உங்களுக்கு 120 புள்ளிகள் கிடைத்தன. இருப்பு 1,450 புள்ளிகள்.';

/** A fake of the templates calls that keeps what was saved, like the server. */
function templatesServer(role = 'owner') {
  let stored: NoticeTemplate[] = NOTICE_EVENTS.map((event) => ({
    event,
    enabled: true,
    text: DEFAULT_NOTICE_TEXTS[event],
    isDefault: true,
  }));
  stored = stored.map((t) =>
    t.event === 'schemeClosed'
      ? { ...t, enabled: false, text: 'Dear {name}, your scheme is closed.', isDefault: false }
      : t,
  );
  const server = fakeServer()
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: { ...testOwner, role } } })
    .on('GET', API_PATHS.noticeTemplates, () => ({
      status: 200,
      body: { success: true, data: stored },
    }))
    .on('POST', API_PATHS.noticeTemplates, (request) => {
      const saved = saveNoticeTemplateRequest.parse(request.body);
      const template: NoticeTemplate = {
        ...saved,
        isDefault: saved.text === DEFAULT_NOTICE_TEXTS[saved.event],
      };
      stored = stored.map((t) => (t.event === saved.event ? template : t));
      return {
        status: 200,
        body: {
          success: true,
          message: NOTICE_MESSAGES.templateSaved(label(saved.event)),
          data: template,
        },
      };
    });
  return server;
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp(PATHS.messageTemplates);
  await screen.findByRole(
    'heading',
    { name: PAGE_TITLES.messageTemplates, level: 1 },
    {
      timeout: 20_000,
    },
  );
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: texts.table });
const rowOf = (event: NoticeEvent) =>
  within(table())
    .getAllByRole('row')
    .find((row) => within(row).queryByText(label(event)) !== null)!;
const switchOf = (event: NoticeEvent) =>
  screen.getByRole('switch', { name: texts.switchLabel(label(event)) });

async function openEditor(user: ReturnType<typeof userEvent.setup>, event: NoticeEvent) {
  await user.click(await screen.findByRole('button', { name: texts.edit(label(event)) }));
  const dialog = await screen.findByRole('dialog', { name: texts.editTitle(label(event)) });
  return { dialog, text: within(dialog).getByRole('textbox', { name: texts.text }) };
}

/** The text's description: its problem, then the placeholders' hint. */
const described = (problem: string) => `${problem} ${texts.placeholdersHint}`;
const preview = (dialog: HTMLElement) =>
  within(dialog).getByRole('region', { name: texts.preview });
const saveButton = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: new RegExp(`${texts.save}$`) });

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Message Templates', { timeout: 60_000 }, () => {
  it('lists every event with its switch and its text; a changed text is marked', async () => {
    templatesServer();
    await openScreen();
    await waitFor(() =>
      expect(within(table()).getAllByRole('row')).toHaveLength(1 + NOTICE_EVENTS.length),
    );

    for (const event of NOTICE_EVENTS) {
      expect(within(rowOf(event)).getByText(label(event))).toBeInTheDocument();
    }
    expect(rowOf('pointsEarned')).toHaveTextContent(DEFAULT_NOTICE_TEXTS.pointsEarned);
    // A placeholder stays with its ₹.
    expect(within(rowOf('installmentReceived')).getByText('₹{amount}')).toHaveStyle({
      whiteSpace: 'nowrap',
    });
    expect(switchOf('pointsEarned')).toBeChecked();
    expect(within(rowOf('pointsEarned')).queryByText(texts.customised)).toBeNull();
    expect(switchOf('schemeClosed')).not.toBeChecked();
    expect(within(rowOf('schemeClosed')).getByText(texts.off)).toBeInTheDocument();
    expect(within(rowOf('schemeClosed')).getByText(texts.customised)).toBeInTheDocument();
    const nav = screen.getByRole('navigation');
    expect(
      within(nav).getByRole('link', { name: SIDEBAR_LABELS.messageTemplates }),
    ).toHaveAttribute('aria-current', 'page');
  });

  it('edits a text in Tamil with a live preview, and saves it', async () => {
    const server = templatesServer();
    const user = await openScreen();
    const { dialog, text } = await openEditor(user, 'pointsEarned');
    expect(text).toHaveValue(DEFAULT_NOTICE_TEXTS.pointsEarned);
    expect(preview(dialog)).toHaveTextContent(
      'Dear Lakshmi Iyer, you earned 120 points on your purchase at Kanak Jewellers, Main showroom. Your balance is 1,450 points (worth ₹1,450).',
    );

    await user.clear(text);
    // `{{` types one brace.
    await user.type(text, TAMIL.replaceAll('{', '{{'));
    expect(text).toHaveValue(TAMIL);
    expect(preview(dialog)).toHaveTextContent(TAMIL_FILLED);

    const answer = deferred();
    const saving = server.sent('POST', API_PATHS.noticeTemplates).length;
    server.on('POST', API_PATHS.noticeTemplates, answer.handler);
    await user.click(saveButton(dialog));
    await waitFor(() => expect(saveButton(dialog)).toBeDisabled());
    expect(within(dialog).getByRole('progressbar', { name: texts.saving })).toBeVisible();
    const request = server.sent('POST', API_PATHS.noticeTemplates)[saving]!;
    expect(request.body).toEqual({ event: 'pointsEarned', enabled: true, text: TAMIL });
    expect(request.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    answer.release({
      status: 200,
      body: {
        success: true,
        message: NOTICE_MESSAGES.templateSaved(label('pointsEarned')),
        data: { event: 'pointsEarned', enabled: true, text: TAMIL, isDefault: false },
      },
    });

    expect(
      await screen.findByText(NOTICE_MESSAGES.templateSaved(label('pointsEarned'))),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rowOf('pointsEarned')).toHaveTextContent(TAMIL);
    expect(within(rowOf('pointsEarned')).getByText(texts.customised)).toBeInTheDocument();
  });

  it('puts a clicked placeholder where the cursor is, and lists what each one means', async () => {
    templatesServer();
    const user = await openScreen();
    const { dialog, text } = await openEditor(user, 'installmentReceived');
    for (const key of NOTICE_PLACEHOLDERS) {
      expect(within(dialog).getByRole('button', { name: `{${key}}` })).toBeInTheDocument();
    }
    expect(within(dialog).getByRole('button', { name: '{receipt}' })).toHaveAccessibleDescription(
      'the receipt number',
    );

    await user.clear(text);
    await user.type(text, 'Receipt  is ready.');
    (text as HTMLTextAreaElement).setSelectionRange(8, 8);
    await user.click(within(dialog).getByRole('button', { name: '{receipt}' }));

    expect(text).toHaveValue('Receipt {receipt} is ready.');
    expect(text).toHaveFocus();
    expect((text as HTMLTextAreaElement).selectionStart).toBe(17);
    expect(preview(dialog)).toHaveTextContent('Receipt MAIN-000123 is ready.');
  });

  it('names an unknown placeholder at once and does not send it', async () => {
    const server = templatesServer();
    const user = await openScreen();
    const { dialog, text } = await openEditor(user, 'installmentDue');

    await user.clear(text);
    await user.type(text, 'Dear {{nmae}, pay ₹{{amount} by {{dueDate}.');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      texts.unknownPlaceholders(['nmae']),
    );
    // The preview keeps the misspelt one as typed.
    expect(preview(dialog)).toHaveTextContent('Dear {nmae}, pay ₹5,000 by 05/12/2026.');

    await user.click(saveButton(dialog));
    const rule = saveNoticeTemplateRequest.safeParse({
      event: 'installmentDue',
      enabled: true,
      text: 'Dear {nmae}',
    }).error?.issues[0]?.message;
    expect(rule).toMatch(/placeholders/);
    await waitFor(() => expect(text).toHaveAccessibleDescription(described(rule!)));
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(server.sent('POST', API_PATHS.noticeTemplates)).toHaveLength(0);
  });

  it.each<[string, Reply, string]>([
    [
      'a refusal shows under the text',
      { status: 400, body: { success: false, message: 'Text must be at most 1000 characters.' } },
      'Text must be at most 1000 characters.',
    ],
    [
      'a refusal without words shows the fixed text',
      { status: 409, body: { success: false } },
      texts.saveFailed,
    ],
  ])('save: %s; the dialog stays open with the edit', async (_case, reply, shown) => {
    const server = templatesServer();
    server.on('POST', API_PATHS.noticeTemplates, reply);
    const user = await openScreen();
    const { dialog, text } = await openEditor(user, 'schemeMatured');
    await user.type(text, ' नमस्ते');
    await user.click(saveButton(dialog));

    await waitFor(() => expect(text).toHaveAccessibleDescription(described(shown)));
    expect(text).toHaveValue(`${DEFAULT_NOTICE_TEXTS.schemeMatured} नमस्ते`);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    // Typing again clears the refusal.
    await user.type(text, '!');
    expect(text).toHaveAccessibleDescription(texts.placeholdersHint);
  });

  it('"Use the default text" puts the shop’s starting text back', async () => {
    const server = templatesServer();
    const user = await openScreen();
    const { dialog, text } = await openEditor(user, 'schemeClosed');
    expect(text).toHaveValue('Dear {name}, your scheme is closed.');

    await user.click(within(dialog).getByRole('button', { name: texts.restoreDefault }));
    expect(text).toHaveValue(DEFAULT_NOTICE_TEXTS.schemeClosed);
    expect(within(dialog).getByRole('button', { name: texts.restoreDefault })).toBeDisabled();
    await user.click(saveButton(dialog));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.sent('POST', API_PATHS.noticeTemplates).at(-1)?.body).toEqual({
      event: 'schemeClosed',
      enabled: false,
      text: DEFAULT_NOTICE_TEXTS.schemeClosed,
    });
    expect(within(rowOf('schemeClosed')).queryByText(texts.customised)).toBeNull();
  });

  it('Cancel closes the dialog and sends nothing', async () => {
    const server = templatesServer();
    const user = await openScreen();
    const { dialog, text } = await openEditor(user, 'pointsRedeemed');
    await user.type(text, ' unsaved');
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rowOf('pointsRedeemed')).toHaveTextContent(DEFAULT_NOTICE_TEXTS.pointsRedeemed);
    expect(server.sent('POST', API_PATHS.noticeTemplates)).toHaveLength(0);
  });

  it('a switch saves that event on or off with the text it has', async () => {
    const server = templatesServer();
    const user = await openScreen();
    await waitFor(() => expect(switchOf('installmentOverdue')).toBeChecked());

    const answer = deferred();
    server.on('POST', API_PATHS.noticeTemplates, answer.handler);
    await user.click(switchOf('installmentOverdue'));
    // While one switch saves, none can be turned.
    await waitFor(() => expect(switchOf('pointsEarned')).toBeDisabled());
    expect(server.sent('POST', API_PATHS.noticeTemplates)[0]?.body).toEqual({
      event: 'installmentOverdue',
      enabled: false,
      text: DEFAULT_NOTICE_TEXTS.installmentOverdue,
    });
    answer.release({
      status: 200,
      body: {
        success: true,
        message: NOTICE_MESSAGES.templateSaved(label('installmentOverdue')),
        data: {
          event: 'installmentOverdue',
          enabled: false,
          text: DEFAULT_NOTICE_TEXTS.installmentOverdue,
          isDefault: true,
        },
      },
    });

    await waitFor(() => expect(switchOf('installmentOverdue')).not.toBeChecked());
    expect(within(rowOf('installmentOverdue')).getByText(texts.off)).toBeInTheDocument();
    expect(switchOf('pointsEarned')).toBeEnabled();
    expect(
      screen.getByText(NOTICE_MESSAGES.templateSaved(label('installmentOverdue'))),
    ).toBeInTheDocument();
  });

  it('a switch the server refuses stays as it was, with the server’s words', async () => {
    const server = templatesServer();
    server.on('POST', API_PATHS.noticeTemplates, {
      status: 403,
      body: { success: false, message: 'Only the owner may change templates.' },
    });
    const user = await openScreen();
    await waitFor(() => expect(switchOf('schemeStarted')).toBeChecked());
    await user.click(switchOf('schemeStarted'));

    expect(await screen.findByText('Only the owner may change templates.')).toBeInTheDocument();
    expect(switchOf('schemeStarted')).toBeChecked();
  });

  it('is not for a manager: no sidebar entry, and the address says "not allowed"', async () => {
    templatesServer('manager');
    setScreenWidth(1366);
    signedInAs('mohan');
    renderApp(PATHS.messageTemplates);
    expect(
      await screen.findByText(MESSAGES.notAllowed, undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation');
    expect(within(nav).getByRole('link', { name: SIDEBAR_LABELS.deliveryLog })).toBeVisible();
    expect(within(nav).queryByRole('link', { name: SIDEBAR_LABELS.messageTemplates })).toBeNull();
  });
});
