import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACCOUNTING_MESSAGES,
  ACCOUNTING_TEXTS,
  API_PATHS,
  DEFAULT_ACCOUNTING_SETTINGS,
  IDEMPOTENCY_HEADER,
  PAGE_TITLES,
  RAZORPAY_SETTLEMENTS_HEADER,
  TALLY_LEDGER_FIELDS,
  TALLY_LEDGERS,
  formatSlashDate,
  todayIn,
  type AccountingSettings,
} from '@kanak/contract';
import { typeDate } from '../../components/DateField.testing';
import { fakeServer } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = ACCOUNTING_TEXTS;
const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<ENVELOPE></ENVELOPE>\n';
const pushed = {
  vouchers: 3,
  created: 2,
  altered: 0,
  errors: 1,
  lineErrors: ["Ledger 'Till' does not exist!"],
};

function accountingServer(
  options: { saved?: AccountingSettings; razorpaySettlements?: boolean } = {},
) {
  let saved: AccountingSettings | null = options.saved ?? null;
  const razorpaySettlements = options.razorpaySettlements ?? true;
  return fakeServer()
    .on('GET', API_PATHS.branches, {
      status: 200,
      body: { success: true, data: [{ code: 'MAIN', name: 'Main', address: '', phone: '' }] },
    })
    .on('GET', API_PATHS.accountingSettings, () => ({
      status: 200,
      body: {
        success: true,
        data: {
          ...(saved ?? DEFAULT_ACCOUNTING_SETTINGS),
          isDefault: saved === null,
          razorpaySettlements,
        },
      },
    }))
    .on('POST', API_PATHS.accountingSettings, (request) => {
      saved = request.body as AccountingSettings;
      return {
        status: 200,
        body: {
          success: true,
          message: ACCOUNTING_MESSAGES.settingsSaved,
          data: { ...saved, isDefault: false, razorpaySettlements },
        },
      };
    })
    .on('POST', API_PATHS.tallyExport, {
      status: 200,
      body: XML,
      headers: { [RAZORPAY_SETTLEMENTS_HEADER]: '2' },
    })
    .on('POST', API_PATHS.tallyPush, {
      status: 200,
      body: { success: true, message: ACCOUNTING_MESSAGES.pushed(pushed), data: pushed },
    });
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp('/home/accounting');
  // The screen's code loads on first use: the first test waits for it.
  await screen.findByRole(
    'heading',
    { name: PAGE_TITLES.accounting, level: 1 },
    { timeout: 30_000 },
  );
  await screen.findByRole('button', { name: texts.exportFile });
  return userEvent.setup();
}

/** The range the screen starts with: this month so far. */
const today = todayIn('Asia/Kolkata');
const monthStart = `${today.slice(0, 8)}01`;

const originalCreate = URL.createObjectURL;
afterEach(() => {
  URL.createObjectURL = originalCreate;
});

// Each test renders the whole app and types dates as staff do: slow on a busy 2-core machine.
describe('Accounting', { timeout: 60_000 }, () => {
  it('shows the usual ledger names, refuses an empty one, and saves the changed names', async () => {
    const server = accountingServer();
    const user = await openScreen();
    expect(screen.getByText(texts.defaults)).toBeInTheDocument();
    expect(screen.getByLabelText(TALLY_LEDGERS.schemeAdvancesLedger.label)).toHaveValue(
      'Scheme Advances',
    );
    const cash = screen.getByLabelText(TALLY_LEDGERS.cashLedger.label);
    await user.clear(cash);
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(
      await screen.findByText(`${TALLY_LEDGERS.cashLedger.label} is required.`),
    ).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.accountingSettings)).toHaveLength(0);

    await user.type(cash, 'Till');
    await user.type(screen.getByLabelText(texts.company), 'A & B');
    await user.click(screen.getByRole('button', { name: texts.save }));
    await waitFor(() => expect(server.sent('POST', API_PATHS.accountingSettings)).toHaveLength(1));
    const [sent] = server.sent('POST', API_PATHS.accountingSettings);
    expect(sent?.body).toEqual({
      ...DEFAULT_ACCOUNTING_SETTINGS,
      company: 'A & B',
      cashLedger: 'Till',
    });
    expect(sent?.headers[IDEMPOTENCY_HEADER]).toBeTruthy();
    expect(await screen.findByText(ACCOUNTING_MESSAGES.settingsSaved)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(texts.defaults)).not.toBeInTheDocument());
    // The first test also loads the screen's code.
  }, 120_000);

  it('puts the download first, then how to import in TallyPrime, then the one-time ledgers', async () => {
    accountingServer();
    await openScreen();
    const download = screen.getByRole('button', { name: texts.exportFile });
    const help = screen.getByRole('heading', { name: texts.helpHeading, level: 2 });
    const ledgers = screen.getByRole('button', { name: texts.ledgersHeading });
    const follows = (a: Element, b: Element) =>
      Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(download, help)).toBe(true);
    expect(follows(help, ledgers)).toBe(true);
    expect(follows(help, screen.getByLabelText(TALLY_LEDGERS.cashLedger.label))).toBe(true);

    // TallyPrime's own menu path, and every ledger with the group it goes under.
    const section = screen.getByRole('region', { name: texts.helpHeading });
    expect(section).toHaveTextContent('Gateway of Tally → Import → Transactions');
    const groups = within(section).getByRole('table', { name: texts.groupsHeading });
    const rows = within(groups)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual(
      TALLY_LEDGER_FIELDS.map((field) => [
        TALLY_LEDGERS[field].label,
        TALLY_LEDGERS[field].default,
        TALLY_LEDGERS[field].group,
      ]),
    );
    expect(rows).toContainEqual([
      TALLY_LEDGERS.schemeAdvancesLedger.label,
      'Scheme Advances',
      'Current Liabilities',
    ]);
    // Not saved yet: the set-up is open, each ledger saying its group.
    expect(ledgers).toHaveAttribute('aria-expanded', 'true');
    expect(
      screen.getByLabelText(TALLY_LEDGERS.gatewayClearingLedger.label),
    ).toHaveAccessibleDescription(texts.underGroup('Current Assets'));
  });

  it('folds the ledger set-up away once saved, and opens it on asking', async () => {
    accountingServer({ saved: { ...DEFAULT_ACCOUNTING_SETTINGS, company: 'Kanak' } });
    const user = await openScreen();
    const ledgers = screen.getByRole('button', {
      name: (name) => name.startsWith(texts.ledgersHeading),
    });
    expect(ledgers).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(texts.ledgersSaved)).toBeInTheDocument();
    await user.click(ledgers);
    expect(ledgers).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText(texts.company)).toHaveValue('Kanak');
  });

  it('says when this server has no Razorpay keys, so the file holds no Razorpay payouts', async () => {
    accountingServer({ razorpaySettlements: false });
    await openScreen();
    expect(screen.getByText(texts.razorpayNotSet)).toBeInTheDocument();
  });

  it("downloads the range's Tally file, for one branch when chosen", async () => {
    const server = accountingServer();
    let saved: Blob | null = null;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved = blob as Blob;
      return 'blob:tally';
    };
    const user = await openScreen();
    await screen.findByRole('option', { name: 'MAIN · Main' });
    await user.selectOptions(screen.getByLabelText(texts.branch), 'MAIN');
    await user.click(screen.getByRole('button', { name: texts.exportFile }));
    await waitFor(() => expect(saved).not.toBeNull());
    expect(server.sent('POST', API_PATHS.tallyExport).at(-1)?.body).toEqual({
      from: monthStart,
      to: today,
      branch: 'MAIN',
    });
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(saved as unknown as Blob);
    });
    expect(text).toBe(XML);
    expect(await screen.findByText(texts.downloadedWith(2))).toBeInTheDocument();
  });

  it("shows the server's refusal of an export in its own words", async () => {
    const server = accountingServer();
    server.on('POST', API_PATHS.tallyExport, {
      status: 404,
      body: JSON.stringify({ success: false, message: ACCOUNTING_MESSAGES.unknownBranch }),
    });
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.exportFile }));
    expect(await screen.findByText(ACCOUNTING_MESSAGES.unknownBranch)).toBeInTheDocument();
  });

  it('checks the dates before asking anything', async () => {
    const server = accountingServer();
    const user = await openScreen();
    await typeDate(user, texts.from, '02/01/2026');
    await typeDate(user, texts.to, '01/01/2026');
    await user.click(screen.getByRole('button', { name: texts.push }));
    expect(
      await screen.findByText('The from date must not be after the to date.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.tallyPush)).toHaveLength(0);
  });

  it("sends to Tally only once confirmed, and shows Tally's answer with its refusals", async () => {
    const server = accountingServer();
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.push }));
    const dialog = await screen.findByRole('dialog', { name: texts.confirmTitle });
    expect(dialog).toHaveTextContent(
      texts.confirmQuestion(formatSlashDate(monthStart), formatSlashDate(today)),
    );
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    expect(server.sent('POST', API_PATHS.tallyPush)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: texts.push }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: texts.confirm }),
    );
    await waitFor(() => expect(server.sent('POST', API_PATHS.tallyPush)).toHaveLength(1));
    expect(server.sent('POST', API_PATHS.tallyPush)[0]?.body).toEqual({
      from: monthStart,
      to: today,
    });
    const answer = await screen.findByRole('status', { name: texts.resultHeading });
    expect(answer).toHaveTextContent(ACCOUNTING_MESSAGES.pushed(pushed));
    expect(answer).toHaveTextContent("Ledger 'Till' does not exist!");
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows in the dialog that Tally's address is not set", async () => {
    const server = accountingServer();
    server.on('POST', API_PATHS.tallyPush, {
      status: 409,
      body: { success: false, message: ACCOUNTING_MESSAGES.tallyNotSet },
    });
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.push }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: texts.confirm }),
    );
    expect(
      await within(screen.getByRole('dialog')).findByText(ACCOUNTING_MESSAGES.tallyNotSet),
    ).toBeInTheDocument();
  });
});
