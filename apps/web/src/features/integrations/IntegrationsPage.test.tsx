import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  INTEGRATION_TEXTS,
  PAGE_TITLES,
  POS_MESSAGES,
  SIDEBAR_LABELS,
  type Branch,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import type { ApiKey } from './api';

const texts = INTEGRATION_TEXTS;
const main: Branch = { code: 'MAIN', name: 'Main showroom', address: 'Mumbai', phone: '1' };
const ann: Branch = { code: 'ANN', name: 'Anna Nagar', address: 'Chennai', phone: '2' };
const till: ApiKey = {
  id: 1,
  label: 'Main till 1',
  prefix: 'kk_ab12',
  branch: 'MAIN',
  createdAt: '2026-04-01T05:00:00.000Z',
  lastUsedAt: '2026-04-02T05:00:00.000Z',
  revokedAt: null,
};
const NEW_KEY = 'kk_cd34_the-whole-secret-key';

/** A fake of the API keys calls that keeps what was made and revoked, like the server. */
function keysServer(role = 'owner') {
  let stored: ApiKey[] = [till];
  return fakeServer()
    .on('GET', API_PATHS.me, {
      status: 200,
      body: { success: true, data: { ...testOwner, role, branch: main } },
    })
    .on('GET', API_PATHS.branches, { status: 200, body: { success: true, data: [main, ann] } })
    .on('GET', API_PATHS.apiKeys, () => ({ status: 200, body: { success: true, data: stored } }))
    .on('POST', API_PATHS.apiKeys, (request) => {
      const { label, branch } = request.body as { label: string; branch: string };
      stored = [
        ...stored,
        {
          id: 2,
          label,
          prefix: 'kk_cd34',
          branch,
          createdAt: '2026-04-03T05:00:00.000Z',
          lastUsedAt: null,
          revokedAt: null,
        },
      ];
      return { status: 200, body: { success: true, data: { id: 2, key: NEW_KEY } } };
    })
    .on('POST', API_PATHS.apiKeyRevoke, (request) => {
      const { id } = request.body as { id: number };
      stored = stored.map((k) => (k.id === id ? { ...k, revokedAt: '2026-04-04T05:00:00Z' } : k));
      return { status: 200, body: { success: true, message: POS_MESSAGES.apiKeyRevoked } };
    });
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp('/home/integrations');
  await screen.findByRole('heading', { name: PAGE_TITLES.integrations, level: 1 });
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: texts.table });

describe('Integrations', () => {
  it('lists the keys with branch, prefix, dates and status, from the owner’s sidebar', async () => {
    keysServer();
    await openScreen();
    await waitFor(() => expect(within(table()).getByText('Main till 1')).toBeInTheDocument());
    expect(within(table()).getByText('kk_ab12…')).toBeInTheDocument();
    expect(within(table()).getByText('01/04/2026')).toBeInTheDocument();
    expect(within(table()).getByText('02/04/2026')).toBeInTheDocument();
    expect(within(table()).getByText(texts.active)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(
      within(nav).getByRole('link', { name: SIDEBAR_LABELS.integrations }),
    ).toBeInTheDocument();
  });

  it('makes a key for the chosen branch and shows it once, with a warning', async () => {
    const server = keysServer();
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.add }));
    const dialog = await screen.findByRole('dialog', { name: texts.addTitle });
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    expect(await within(dialog).findByText('Label is required.', { exact: false })).toBeTruthy();
    expect(server.sent('POST', API_PATHS.apiKeys)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(texts.label), 'Anna Nagar till');
    const branch = within(dialog).getByLabelText(texts.branch);
    await waitFor(() => expect(within(branch).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(branch, 'ANN');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));

    const shown = await screen.findByRole('dialog', { name: texts.shownTitle('Anna Nagar till') });
    expect(within(shown).getByText(NEW_KEY)).toBeInTheDocument();
    expect(within(shown).getByText(texts.shownIntro)).toBeInTheDocument();
    const [sent] = server.sent('POST', API_PATHS.apiKeys);
    expect(sent?.body).toEqual({ label: 'Anna Nagar till', branch: 'ANN' });
    expect(sent?.headers[IDEMPOTENCY_HEADER]).toBeTruthy();

    await user.click(within(shown).getByRole('button', { name: texts.close }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(table()).findByText('Anna Nagar till')).toBeInTheDocument();
    // Once closed, the whole key is nowhere on the screen.
    expect(screen.queryByText(NEW_KEY)).toBeNull();
  });

  it('revokes a key after confirming', async () => {
    const server = keysServer();
    const user = await openScreen();
    await user.click(await screen.findByRole('button', { name: texts.revoke('Main till 1') }));
    const dialog = await screen.findByRole('dialog', { name: texts.revokeTitle('Main till 1') });
    await user.click(within(dialog).getByRole('button', { name: texts.confirmRevoke }));
    await waitFor(() =>
      expect(server.sent('POST', API_PATHS.apiKeyRevoke)[0]?.body).toEqual({ id: 1 }),
    );
    expect(await within(table()).findByText(texts.revoked)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.revoke('Main till 1') })).toBeNull();
  });

  it('is not in a manager’s sidebar', async () => {
    keysServer('manager');
    setScreenWidth(1366);
    signedInAs('mohan');
    renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(
      await within(nav).findByRole('link', { name: SIDEBAR_LABELS.staff }),
    ).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: SIDEBAR_LABELS.integrations })).toBeNull();
    expect(within(nav).queryByRole('link', { name: SIDEBAR_LABELS.pointsRules })).toBeNull();
  });
});
