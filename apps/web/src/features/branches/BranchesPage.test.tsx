import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  BRANCH_TEXTS,
  IDEMPOTENCY_HEADER,
  MESSAGES,
  PAGE_TITLES,
  SIDEBAR_LABELS,
  type Branch,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = BRANCH_TEXTS;
const main: Branch = {
  code: 'MAIN',
  name: 'Main showroom',
  address: '12 Zaveri Bazaar, Mumbai 400002',
  phone: '+91 22 2342 1928',
};

/** A fake of the branches API that keeps what was saved, like the server (create or update by code). */
function branchesServer(role = 'owner') {
  let stored: Branch[] = [main];
  const server = fakeServer()
    .on('GET', API_PATHS.me, {
      status: 200,
      body: { success: true, data: { ...testOwner, role, branch: main } },
    })
    .on('GET', API_PATHS.branches, () => ({ status: 200, body: { success: true, data: stored } }))
    .on('POST', API_PATHS.saveBranch, (request) => {
      const saved = request.body as Branch;
      if (saved.code === 'TAKEN')
        return { status: 409, body: { success: false, message: 'Refused for a reason.' } };
      stored = stored.some((b) => b.code === saved.code)
        ? stored.map((b) => (b.code === saved.code ? saved : b))
        : [...stored, saved];
      return {
        status: 200,
        body: { success: true, message: MESSAGES.branchSaved(saved.code), data: saved },
      };
    });
  return server;
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp('/home/branches');
  await screen.findByRole('heading', { name: PAGE_TITLES.branches, level: 1 }, { timeout: 20_000 });
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: texts.table });

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Branches', { timeout: 60_000 }, () => {
  it('lists the branches and sits in the owner’s sidebar', async () => {
    branchesServer();
    await openScreen();
    await waitFor(() => expect(within(table()).getByText(main.address)).toBeInTheDocument());
    expect(within(table()).getByText('MAIN')).toBeInTheDocument();
    expect(within(table()).getByText(main.phone)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: SIDEBAR_LABELS.branches })).toBeInTheDocument();
    // The signed-in staff member's branch shows in the top bar.
    expect(screen.getByTestId('top-bar-branch')).toHaveTextContent('· MAIN');
  });

  it('says so above the table when the branches cannot be loaded', async () => {
    branchesServer().on('GET', API_PATHS.branches, {
      status: 500,
      body: { success: false, message: 'Internal Server Error' },
    });
    await openScreen();
    expect(await screen.findByRole('alert', {}, { timeout: 20_000 })).toHaveTextContent(
      texts.loadFailed,
    );
    expect(within(table()).getByText(texts.empty)).toBeInTheDocument();
  });

  it('adds a branch: the code typed in capitals, checked before sending, then listed', async () => {
    const server = branchesServer();
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.add }));
    const dialog = await screen.findByRole('dialog', { name: texts.addTitle });
    await user.type(within(dialog).getByLabelText(texts.code), 'a1');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    expect(
      await within(dialog).findByText('Branch code must be 2 to 6 capital letters (A to Z).'),
    ).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveBranch)).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(texts.code));
    await user.type(within(dialog).getByLabelText(texts.code), 'ann');
    expect(within(dialog).getByLabelText(texts.code)).toHaveValue('ANN');
    await user.type(within(dialog).getByLabelText(texts.name), 'Anna Nagar');
    await user.type(within(dialog).getByLabelText(texts.address), '5 2nd Avenue, Chennai');
    await user.type(within(dialog).getByLabelText(texts.phone), '+91 44 2626 1001');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [sent] = server.sent('POST', API_PATHS.saveBranch);
    expect(sent?.body).toEqual({
      code: 'ANN',
      name: 'Anna Nagar',
      address: '5 2nd Avenue, Chennai',
      phone: '+91 44 2626 1001',
      receiptPaper: 'a4',
    });
    expect(sent?.headers[IDEMPOTENCY_HEADER]).toBeTruthy();
    expect(await screen.findByText(MESSAGES.branchSaved('ANN'))).toBeInTheDocument();
    expect(await within(table()).findByText('5 2nd Avenue, Chennai')).toBeInTheDocument();
  });

  it('edits a branch by its code, which stays as it is', async () => {
    const server = branchesServer();
    const user = await openScreen();
    await user.click(await screen.findByRole('button', { name: texts.edit('MAIN') }));
    const dialog = await screen.findByRole('dialog', { name: texts.editTitle('MAIN') });
    expect(within(dialog).getByLabelText(texts.code)).toHaveAttribute('readonly');
    const address = within(dialog).getByLabelText(texts.address);
    await user.clear(address);
    await user.type(address, '14 Zaveri Bazaar, Mumbai 400002');
    // The counter's printer: an 80 mm roll instead of A4 sheets.
    await user.selectOptions(
      within(dialog).getByLabelText(texts.receiptPaper),
      texts.receiptPapers['80mm'],
    );
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    await waitFor(() =>
      expect(server.sent('POST', API_PATHS.saveBranch)[0]?.body).toEqual({
        ...main,
        address: '14 Zaveri Bazaar, Mumbai 400002',
        receiptPaper: '80mm',
      }),
    );
    expect(await within(table()).findByText('14 Zaveri Bazaar, Mumbai 400002')).toBeInTheDocument();
  });

  it('keeps a refused save open with the server’s reason', async () => {
    branchesServer();
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.add }));
    const dialog = await screen.findByRole('dialog', { name: texts.addTitle });
    await user.type(within(dialog).getByLabelText(texts.code), 'taken');
    await user.type(within(dialog).getByLabelText(texts.name), 'X');
    await user.type(within(dialog).getByLabelText(texts.address), 'Y');
    await user.type(within(dialog).getByLabelText(texts.phone), '1');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Refused for a reason.');
  });

  it('is not in a manager’s sidebar', async () => {
    branchesServer('manager');
    setScreenWidth(1366);
    signedInAs('mohan');
    renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(
      await within(nav).findByRole('link', { name: SIDEBAR_LABELS.staff }),
    ).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: SIDEBAR_LABELS.branches })).toBeNull();
  });
});
