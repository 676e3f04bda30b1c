import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  LEDGER_TEXTS,
  UI_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  todayIn,
  type StatementRow,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { dateShown, ddmmyyyy } from '../../components/DateField.testing';
import { saveFile } from '../../components/saveFile';
import { fakeServer, testBranding, type SeenRequest } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

vi.mock('../../components/saveFile', () => ({ saveFile: vi.fn() }));

const texts = LEDGER_TEXTS.statement;
const points = LEDGER_TEXTS.loyaltyPoints;
const P = API_PATHS;
const ANITA = { CUSTNAME: 'Anita Desai', MOBILENO: '9988776655' };
const today = () => todayIn('Asia/Kolkata');
const SFDATE = '2026-04-01';

const row = (partial: Partial<StatementRow> & Pick<StatementRow, 'MRN'>): StatementRow => ({
  INVDATE: '2026-05-10',
  NARRATION: 'Points allocated',
  SALEAMT: 0,
  RCREDIT: 0,
  RDEBIT: 0,
  TS: 'M',
  CUSTNAME: ANITA.CUSTNAME,
  MOBILENO: ANITA.MOBILENO,
  CASHCR: 'CR',
  ...partial,
});

const ROWS: StatementRow[] = [
  row({ MRN: 0, INVDATE: null, NARRATION: 'Opening Balance', RCREDIT: 50, TS: 'O' }),
  row({
    MRN: 11,
    INVDATE: '2026-05-10',
    NARRATION: 'Sale bill 1001',
    SALEAMT: 45250.5,
    RCREDIT: 452,
    TS: 'S',
  }),
  row({ MRN: 12, INVDATE: '2026-06-02', NARRATION: 'Diwali bonus', RCREDIT: 100 }),
  row({ MRN: 13, INVDATE: '2026-06-20', NARRATION: 'Redeemed', RDEBIT: 30, CASHCR: 'DB' }),
];

function server(rows: StatementRow[] | (() => StatementRow[]) = ROWS) {
  return fakeServer()
    .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [ANITA] } })
    .on('GET', P.financialYear, { status: 200, body: { success: true, data: { sfdate: SFDATE } } })
    .on('POST', P.pointsStatement, () => ({
      status: 200,
      body: { success: true, data: typeof rows === 'function' ? rows() : rows },
    }));
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('asha');
  renderApp('/home/statement');
  // The first screen of a cold run compiles on demand: give it time.
  await screen.findByRole(
    'heading',
    { level: 1, name: PAGE_TITLES.statement },
    { timeout: 20_000 },
  );
  return userEvent.setup();
}

/** A label's text, without the asterisk of a required field. */
const labelled = (label: string) => (text: string) => text.replace(/[\s\u2009]*\*$/, '') === label;
const input = (label: string) => screen.getByLabelText(labelled(label), { selector: 'input' });
const generateButton = () => screen.getByRole('button', { name: texts.generate });
const table = () => screen.getByRole('table', { name: texts.table });
const cellsOf = (rowElement: HTMLElement) =>
  within(rowElement)
    .queryAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
const bodyRows = () => within(within(table()).getAllByRole('rowgroup')[1]!).getAllByRole('row');
const footerRow = (label: string) =>
  within(table())
    .getAllByRole('row')
    .find((r) => cellsOf(r)[1] === label) as HTMLElement;

async function generate(user: ReturnType<typeof userEvent.setup>) {
  await pickCustomer(user, texts.search, '9988', ANITA);
  await user.click(generateButton());
  // The screen's table: the printout holds the same rows.
  await within(await screen.findByRole('table', { name: texts.table })).findByRole('cell', {
    name: 'Opening Balance',
  });
}

describe('Points Statement', { timeout: 60_000 }, () => {
  it('starts empty: Generate disabled until a customer is chosen, dates from get-fyear and today', async () => {
    server();
    const user = await openScreen();

    expect(screen.getByRole('heading', { level: 2, name: texts.panel })).toBeInTheDocument();
    expect(generateButton()).toBeDisabled();
    await waitFor(() => expect(dateShown(texts.dateFrom)).toBe(ddmmyyyy(SFDATE)));
    expect(dateShown(texts.dateTo)).toBe(ddmmyyyy(today()));
    expect(input(texts.name)).toHaveAttribute('readonly');
    expect(within(table()).getByText(MESSAGES.noStatement)).toBeVisible();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      texts.columns.edit,
      texts.columns.date,
      texts.columns.narration,
      texts.columns.sale,
      texts.columns.credit,
      texts.columns.debit,
    ]);
    expect(screen.queryByRole('button', { name: texts.print })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.downloadCsv })).not.toBeInTheDocument();

    await pickCustomer(user, texts.search, '9988', ANITA);
    expect(input(texts.name)).toHaveValue(ANITA.CUSTNAME);
    expect(generateButton()).toBeEnabled();
  });

  it('generates the statement: en-GB dates, the opening row on Date from, Total and Balance', async () => {
    const fake = server();
    const user = await openScreen();
    await waitFor(() => expect(dateShown(texts.dateFrom)).toBe(ddmmyyyy(SFDATE)));
    await generate(user);

    expect(fake.sent('POST', P.pointsStatement)[0]?.body).toEqual({
      MOBILENO: ANITA.MOBILENO,
      DFROM: SFDATE,
      DTO: today(),
    });
    expect(bodyRows().map(cellsOf)).toEqual([
      ['', '01/04/2026', 'Opening Balance', '', '50', '0'],
      // A sale's row says so; the staff's own rows are as typed.
      ['', '10/05/2026', 'SaleSale bill 1001', '₹45,250.50', '452', '0'],
      ['', '02/06/2026', 'Diwali bonus', '', '100', '0'],
      ['', '20/06/2026', 'Redeemed', '', '0', '30'],
    ]);
    // 602 credit against 30 debit: the balance, 572, shows in Credit with Debit 0.
    expect(cellsOf(footerRow(texts.total))).toEqual(['', 'Total', '', '₹45,250.50', '602', '30']);
    expect(cellsOf(footerRow(texts.balance))).toEqual(['', 'Balance', '', '', '572', '0']);
    expect(screen.getByRole('button', { name: texts.print })).toBeVisible();
    expect(screen.getByRole('button', { name: texts.downloadCsv })).toBeVisible();
  });

  it('shows a debit balance in Debit with Credit 0', async () => {
    server([
      row({ MRN: 21, NARRATION: 'Points allocated', RCREDIT: 40 }),
      row({ MRN: 22, NARRATION: 'Points deducted', RDEBIT: 40, CASHCR: 'DB' }),
    ]);
    const user = await openScreen();
    await pickCustomer(user, texts.search, '9988', ANITA);
    await user.click(generateButton());

    await within(await screen.findByRole('table', { name: texts.table })).findByRole('cell', {
      name: 'Points deducted',
    });
    // Equal sides: not "credit exceeds debit", so the (zero) balance sits in Debit.
    expect(cellsOf(footerRow(texts.total))).toEqual(['', 'Total', '', '₹0', '40', '40']);
    expect(cellsOf(footerRow(texts.balance))).toEqual(['', 'Balance', '', '', '0', '0']);
  });

  it('an empty result keeps the empty state and offers no Print or Download', async () => {
    const fake = server([]);
    const user = await openScreen();
    await pickCustomer(user, texts.search, '9988', ANITA);
    await user.click(generateButton());

    await waitFor(() => expect(fake.sent('POST', P.pointsStatement)).toHaveLength(1));
    expect(await within(table()).findByText(MESSAGES.noStatement)).toBeVisible();
    expect(screen.queryByRole('button', { name: texts.print })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.downloadCsv })).not.toBeInTheDocument();
  });

  it('offers the edit icon only on manually entered rows; the dialog is pre-filled from the row', async () => {
    server();
    const user = await openScreen();
    await generate(user);

    const editButtons = screen.getAllByRole('button', { name: /^Edit entry/ });
    expect(editButtons).toHaveLength(2);
    expect(within(bodyRows()[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(bodyRows()[1]!).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(bodyRows()[3]!).getByRole('button', { name: /^Edit entry/ }));
    const dialog = await screen.findByRole('dialog', { name: texts.dialog });
    const inDialog = (label: string) =>
      within(dialog).getByLabelText(labelled(label), { selector: 'input' });
    expect(within(dialog).getByRole('combobox', { name: texts.dialogSearch })).toHaveValue(
      'Anita Desai (+91) 9988776655',
    );
    expect(inDialog(points.mobile)).toHaveValue(ANITA.MOBILENO);
    expect(inDialog(points.name)).toHaveValue(ANITA.CUSTNAME);
    expect(dateShown(points.date, dialog)).toBe('20/06/2026');
    // POINTS = RCREDIT + RDEBIT.
    expect(inDialog(points.points)).toHaveValue('30');
    expect(inDialog(points.narration)).toHaveValue('Redeemed');
    expect(within(dialog).getByRole('button', { name: points.deduction })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(within(dialog).getByRole('button', { name: points.allocation })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('UPDATE in the dialog saves the entry, regenerates the statement, closes and says so', async () => {
    let debit = 30;
    const fake = server(() => ROWS.map((r) => (r.MRN === 13 ? { ...r, RDEBIT: debit } : r))).on(
      'POST',
      P.updateStatement,
      (request: SeenRequest) => {
        debit = Number((request.body as { formData: { POINTS: string } }).formData.POINTS);
        return { status: 200, body: { success: true, message: MESSAGES.statementUpdated } };
      },
    );
    const user = await openScreen();
    await generate(user);

    await user.click(within(bodyRows()[3]!).getByRole('button', { name: /^Edit entry/ }));
    const dialog = await screen.findByRole('dialog', { name: texts.dialog });
    const pointsInput = within(dialog).getByLabelText(labelled(points.points), {
      selector: 'input',
    });
    await user.clear(pointsInput);
    await user.type(pointsInput, '40');
    await user.click(within(dialog).getByRole('button', { name: texts.update }));

    expect(await screen.findByText(MESSAGES.statementUpdated)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.sent('POST', P.updateStatement)[0]?.body).toEqual({
      formData: {
        MRN: 13,
        CUSTNAME: ANITA.CUSTNAME,
        MOBILENO: ANITA.MOBILENO,
        POINTS: '40',
        NARRATION: 'Redeemed',
        INVDATE: '2026-06-20',
        CASHCR: 'DB',
      },
    });
    await waitFor(() => expect(fake.sent('POST', P.pointsStatement)).toHaveLength(2));
    await waitFor(() =>
      expect(cellsOf(footerRow(texts.balance))).toEqual(['', 'Balance', '', '', '562', '0']),
    );
    expect(cellsOf(bodyRows()[3]!)).toEqual(['', '20/06/2026', 'Redeemed', '', '0', '40']);
  });

  it('a failed statement update keeps the dialog open with "Error in updating statement."', async () => {
    server().on('POST', P.updateStatement, { status: 500, body: { success: false } });
    const user = await openScreen();
    await generate(user);

    await user.click(within(bodyRows()[2]!).getByRole('button', { name: /^Edit entry/ }));
    const dialog = await screen.findByRole('dialog', { name: texts.dialog });
    await user.click(within(dialog).getByRole('button', { name: texts.update }));

    const alert = (await screen.findByText(MESSAGES.statementUpdateFailed)).closest(
      '.MuiAlert-root',
    );
    expect(alert).toHaveClass('MuiAlert-colorError');
    expect(screen.getByRole('dialog', { name: texts.dialog })).toBeInTheDocument();
  });

  it('Download CSV saves the rows with DD MMM YY dates, Total and Balance', async () => {
    server();
    const user = await openScreen();
    await generate(user);

    await user.click(screen.getByRole('button', { name: texts.downloadCsv }));

    expect(saveFile).toHaveBeenCalledTimes(1);
    const [csv, fileName] = vi.mocked(saveFile).mock.calls[0]!;
    expect(fileName).toBe(`points_ledger_9988776655_${SFDATE}_${today()}.csv`);
    expect(String(csv).split('\r\n')).toEqual([
      'Date,Narration,Sale Amt.,Credit,Debit',
      '01 Apr 26,Opening Balance,0.00,50,0',
      '10 May 26,Sale bill 1001,45250.50,452,0',
      '02 Jun 26,Diwali bonus,0.00,100,0',
      '20 Jun 26,Redeemed,0.00,0,30',
      'Total,,45250.50,602,30',
      'Balance,,,572,0',
      '',
    ]);
  });

  it('Print prints the ledger: shop heading, address and mobile, the range in DD-MMM-YY', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    server();
    const user = await openScreen();
    await generate(user);

    await user.click(screen.getByRole('button', { name: texts.print }));
    expect(print).toHaveBeenCalledTimes(1);

    const ledger = screen.getByTestId('print-ledger');
    expect(ledger).toHaveTextContent(testBranding.companyName);
    expect(ledger).toHaveTextContent(
      UI_TEXTS.printAddress(testBranding.shopAddress, testBranding.shopPhone),
    );
    const [y, m, d] = today().split('-');
    const month = new Date(Date.UTC(Number(y), Number(m) - 1, 1)).toLocaleString('en-GB', {
      month: 'short',
      timeZone: 'UTC',
    });
    expect(ledger).toHaveTextContent(
      `Points ledger from 01-Apr-26 to ${d}-${month}-${y!.slice(2)}.`,
    );
    const headers = within(ledger)
      .getAllByRole('columnheader', { hidden: true })
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Date', 'Narration', 'Sale Amt.', 'Credit', 'Debit']);
    expect(ledger).toHaveTextContent('Total');
    expect(ledger).toHaveTextContent('Balance');
  });
});
