import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  MESSAGES,
  PAGE_TITLES,
  STAFF_TEXTS,
  type Branch,
  type Role,
  type StaffAccount,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = STAFF_TEXTS;
const main: Branch = { code: 'MAIN', name: 'Main showroom', address: 'A', phone: '1' };
const anna: Branch = { code: 'ANN', name: 'Anna Nagar', address: 'B', phone: '2' };

const account = (username: string, role: Role, branch: string, extra = {}): StaffAccount => ({
  username,
  name: `Name of ${username}`,
  role,
  branch,
  disabled: false,
  mustChangePassword: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/** A fake of the staff API that keeps its accounts, like the server. */
function staffServer(me: { role: Role; branch: Branch }) {
  let accounts: StaffAccount[] = [
    account('asha', 'owner', 'MAIN'),
    account('meena', 'manager', 'ANN'),
    account('cash2', 'cashier', 'ANN'),
    account('old', 'cashier', 'ANN', { disabled: true }),
  ];
  const username = (body: unknown) => (body as { username: string }).username;
  const server = fakeServer()
    .on('GET', API_PATHS.me, {
      status: 200,
      body: { success: true, data: { ...testOwner, username: 'me', ...me } },
    })
    .on('GET', API_PATHS.branches, { status: 200, body: { success: true, data: [main, anna] } })
    .on('GET', API_PATHS.staff, () => ({ status: 200, body: { success: true, data: accounts } }))
    .on('POST', API_PATHS.staffAdd, (request) => {
      const body = request.body as { username: string; name: string; role: Role; branch: string };
      accounts = [
        ...accounts,
        account(body.username, body.role, body.branch, {
          name: body.name,
          mustChangePassword: true,
        }),
      ];
      return {
        status: 200,
        body: {
          success: true,
          message: MESSAGES.staffAdded(body.username),
          data: { username: body.username, temporaryPassword: 'Tmp-7xQ9-kLm2pZ' },
        },
      };
    })
    .on('POST', API_PATHS.staffUpdate, (request) => {
      const body = request.body as { username: string; name: string; role: Role; branch: string };
      accounts = accounts.map((a) => (a.username === body.username ? { ...a, ...body } : a));
      return {
        status: 200,
        body: { success: true, message: MESSAGES.staffUpdated(body.username) },
      };
    })
    .on('POST', API_PATHS.staffDisable, (request) => {
      if (username(request.body) === 'asha')
        return { status: 409, body: { success: false, message: MESSAGES.lastOwner } };
      accounts = accounts.map((a) =>
        a.username === username(request.body) ? { ...a, disabled: true } : a,
      );
      return {
        status: 200,
        body: { success: true, message: MESSAGES.staffDisabled(username(request.body)) },
      };
    })
    .on('POST', API_PATHS.staffEnable, (request) => {
      accounts = accounts.map((a) =>
        a.username === username(request.body) ? { ...a, disabled: false } : a,
      );
      return {
        status: 200,
        body: { success: true, message: MESSAGES.staffEnabled(username(request.body)) },
      };
    })
    .on('POST', API_PATHS.staffResetPassword, (request) => ({
      status: 200,
      body: {
        success: true,
        message: MESSAGES.staffPasswordReset(username(request.body)),
        data: { username: username(request.body), temporaryPassword: 'New-4hT8-wQp3rS' },
      },
    }));
  return server;
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('me');
  renderApp('/home/staff');
  await screen.findByRole('heading', { name: PAGE_TITLES.staff, level: 1 }, { timeout: 20_000 });
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: texts.table });
const rowOf = (username: string) =>
  within(table())
    .getAllByRole('row')
    .find((row) => within(row).queryByText(username, { exact: true }))!;

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Staff', { timeout: 60_000 }, () => {
  it('lists name, username, role, branch and status', async () => {
    staffServer({ role: 'owner', branch: main });
    await openScreen();
    await within(table()).findByText('cash2');
    const row = rowOf('meena');
    for (const text of ['Name of meena', 'meena', 'Manager', 'ANN', texts.active]) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    expect(within(rowOf('old')).getByText(texts.disabled)).toBeInTheDocument();
  });

  it('adds an account and shows its temporary password once, with Copy', async () => {
    const server = staffServer({ role: 'owner', branch: main });
    const user = await openScreen();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await within(table()).findByText('cash2');
    await user.click(screen.getByRole('button', { name: texts.add }));
    const dialog = await screen.findByRole('dialog', { name: texts.addTitle });
    await user.type(within(dialog).getByLabelText(texts.username), 'priya');
    await user.type(within(dialog).getByLabelText(texts.name), 'Priya Raman');
    await user.selectOptions(within(dialog).getByLabelText(texts.role), 'manager');
    await user.selectOptions(within(dialog).getByLabelText(texts.branch), 'ANN');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));

    const shown = await screen.findByRole('dialog', { name: texts.temporaryTitle('priya') });
    expect(shown).toHaveTextContent('Tmp-7xQ9-kLm2pZ');
    expect(server.sent('POST', API_PATHS.staffAdd)[0]?.body).toEqual({
      username: 'priya',
      name: 'Priya Raman',
      role: 'manager',
      branch: 'ANN',
    });
    await user.click(within(shown).getByRole('button', { name: texts.copy }));
    expect(writeText).toHaveBeenCalledWith('Tmp-7xQ9-kLm2pZ');
    expect(await within(shown).findByRole('button', { name: texts.copied })).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: texts.close }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Shown once: nowhere on the screen any more.
    expect(screen.queryByText('Tmp-7xQ9-kLm2pZ')).toBeNull();
    expect(await within(table()).findByText('Priya Raman')).toBeInTheDocument();
  });

  it('edits role, branch and name', async () => {
    const server = staffServer({ role: 'owner', branch: main });
    const user = await openScreen();
    await within(table()).findByText('cash2');
    await user.click(screen.getByRole('button', { name: texts.edit('cash2') }));
    const dialog = await screen.findByRole('dialog', { name: texts.editTitle('cash2') });
    expect(within(dialog).getByLabelText(texts.username)).toHaveAttribute('readonly');
    await user.clear(within(dialog).getByLabelText(texts.name));
    await user.type(within(dialog).getByLabelText(texts.name), 'Kavya S');
    await user.selectOptions(within(dialog).getByLabelText(texts.role), 'manager');
    await user.selectOptions(within(dialog).getByLabelText(texts.branch), 'MAIN');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    await waitFor(() =>
      expect(server.sent('POST', API_PATHS.staffUpdate)[0]?.body).toEqual({
        username: 'cash2',
        name: 'Kavya S',
        role: 'manager',
        branch: 'MAIN',
      }),
    );
    expect(await screen.findByText(MESSAGES.staffUpdated('cash2'))).toBeInTheDocument();
  });

  it('disables and enables after confirmation; a refusal stays in the dialog', async () => {
    const server = staffServer({ role: 'owner', branch: main });
    const user = await openScreen();
    await within(table()).findByText('cash2');
    await user.click(screen.getByRole('button', { name: texts.disable('cash2') }));
    let dialog = await screen.findByRole('dialog', { name: texts.confirmDisableTitle('cash2') });
    expect(server.sent('POST', API_PATHS.staffDisable)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    await waitFor(() => expect(within(rowOf('cash2')).getByText(texts.disabled)).toBeVisible());

    await user.click(screen.getByRole('button', { name: texts.enable('old') }));
    dialog = await screen.findByRole('dialog', { name: texts.confirmEnableTitle('old') });
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    await waitFor(() => expect(within(rowOf('old')).getByText(texts.active)).toBeVisible());

    await user.click(screen.getByRole('button', { name: texts.disable('asha') }));
    dialog = await screen.findByRole('dialog', { name: texts.confirmDisableTitle('asha') });
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MESSAGES.lastOwner);
  });

  it('resets a password after confirmation and shows the new temporary one', async () => {
    staffServer({ role: 'owner', branch: main });
    const user = await openScreen();
    await within(table()).findByText('cash2');
    await user.click(screen.getByRole('button', { name: texts.resetPassword('cash2') }));
    const dialog = await screen.findByRole('dialog', { name: texts.confirmResetTitle('cash2') });
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    const shown = await screen.findByRole('dialog', { name: texts.temporaryTitle('cash2') });
    expect(shown).toHaveTextContent('New-4hT8-wQp3rS');
  });

  it('lets a manager act only on their branch’s cashiers, adding cashiers to their branch', async () => {
    staffServer({ role: 'manager', branch: anna });
    const user = await openScreen();
    await within(table()).findByText('cash2');
    expect(await screen.findByRole('button', { name: texts.edit('cash2') })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.edit('meena') })).toBeNull();
    expect(screen.queryByRole('button', { name: texts.edit('asha') })).toBeNull();
    await user.click(screen.getByRole('button', { name: texts.add }));
    const dialog = await screen.findByRole('dialog', { name: texts.addTitle });
    const roles = within(within(dialog).getByLabelText(texts.role)).getAllByRole('option');
    expect(roles.map((option) => option.textContent)).toEqual(['Cashier']);
    const branches = within(within(dialog).getByLabelText(texts.branch)).getAllByRole('option');
    expect(branches.map((option) => option.textContent)).toEqual(['ANN · Anna Nagar']);
  });
});
