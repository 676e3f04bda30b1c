import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_PATHS, LIMITS, PAGE_TITLES, REPORT_TEXTS, type CollectionRow } from '@kanak/contract';
import { ddmmyyyy, typeDate } from '../../components/DateField.testing';
import { bodyRows, dataRows, catchDownloads, cells, footerRows } from '../../test/tables';
import { PATHS } from '../../lib/paths';
import { bodies, firstPage, openReport, reportAnswer, reportServer, today } from './reportTestKit';

const texts = REPORT_TEXTS;
const title = PAGE_TITLES.collectionsReport;
const path = API_PATHS.collectionsReport;

const installment: CollectionRow = {
  date: '2026-11-24',
  time: '10:05',
  branch: 'MAIN',
  staff: 'Priya Nair',
  kind: 'installment',
  receipt: 'MAIN-000058',
  schemeid: 17,
  custname: 'Lakshmi Iyer',
  mobileno: '9876543210',
  mode: 'upi',
  amount: 125000,
  points: null,
  enteredOn: '2026-11-24',
};
const redemption: CollectionRow = {
  ...installment,
  time: '11:40',
  staff: 'Counter 2',
  kind: 'redemption',
  receipt: 'MR-2026-00017',
  schemeid: null,
  mode: 'points',
  amount: 1234.5,
  points: 2469,
};
const totals = {
  installments: 1,
  collected: 125000,
  byMode: { cash: 0, upi: 125000, card: 0, bank: 0, cheque: 0, online: 0 },
  redemptions: 1,
  cancelledRedemptions: 0,
  pointsRedeemed: 2469,
  redeemedValue: 1234.5,
  backdated: 0,
};
const oneDay = reportAnswer([installment, redemption], 2, totals);

let downloads: ReturnType<typeof catchDownloads> | null = null;
afterEach(() => downloads?.restore());

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Daily Collections', { timeout: 60_000 }, () => {
  it("shows today's cash book with the till's totals by mode, in en-IN", async () => {
    const server = reportServer('owner', path, oneDay);
    await openReport(PATHS.collectionsReport, title);

    await waitFor(() => expect(bodyRows(title)).toHaveLength(2));
    expect(bodies(server, path)[0]).toEqual({ from: today(), to: today(), ...firstPage });
    // The date over its time, the branch over its staff, the customer over their mobile.
    expect(cells(bodyRows(title)[0]!)).toEqual([
      '24/11/2026 10:05',
      'MAIN Priya Nair',
      'Installment',
      'MAIN-000058',
      '17',
      'Lakshmi Iyer 9876543210',
      'UPI',
      '₹1,25,000',
      '',
    ]);
    expect(cells(bodyRows(title)[1]!).slice(2, 9)).toEqual([
      'Points redeemed',
      'MR-2026-00017',
      '',
      'Lakshmi Iyer 9876543210',
      'Points',
      '₹1,234.50',
      '2,469',
    ]);
    // The till: every mode (zero ones too), what was collected, and the points redeemed.
    const footer = footerRows(title).map((row) => cells(row).filter((cell) => cell !== ''));
    expect(footer).toEqual([
      ['Totals', 'Cash', '₹0'],
      ['UPI', '₹1,25,000'],
      ['Card', '₹0'],
      ['Bank transfer', '₹0'],
      ['Cheque', '₹0'],
      ['Online', '₹0'],
      ['Collected', '₹1,25,000'],
      ['Points redeemed', '₹1,234.50', '2,469'],
    ]);
    expect(
      screen.getByText('Totals · Installments: 1 · Redemptions: 1 · Cancelled redemptions: 0'),
    ).toBeVisible();
    expect(screen.getByText('Page 1 of 1 · 2 rows')).toBeVisible();
  });

  it("shows points staff redeemed beside the billing system's, each its own row", async () => {
    const byStaff: CollectionRow = {
      ...redemption,
      time: '12:10',
      staff: 'Priya Nair',
      // Staff named the billing system's bill, or none at all.
      receipt: redemption.receipt,
      amount: 60.5,
      points: 121,
      entry: 41,
    };
    const noBill: CollectionRow = { ...byStaff, time: '12:30', receipt: '', entry: 42 };
    const again: CollectionRow = { ...noBill, entry: 43 };
    const keyWarnings = vi.spyOn(console, 'error');
    reportServer(
      'owner',
      path,
      reportAnswer([installment, redemption, byStaff, noBill, again], 5, {
        ...totals,
        redemptions: 4,
        pointsRedeemed: 2469 + 3 * 121,
        redeemedValue: 1234.5 + 3 * 60.5,
      }),
    );
    await openReport(PATHS.collectionsReport, title);

    await waitFor(() => expect(bodyRows(title)).toHaveLength(5));
    expect(cells(bodyRows(title)[2]!)).toEqual([
      '24/11/2026 12:10',
      'MAIN Priya Nair',
      'Points redeemed',
      'MR-2026-00017',
      '',
      'Lakshmi Iyer 9876543210',
      'Points',
      '₹60.50',
      '121',
    ]);
    expect(cells(bodyRows(title)[3]!).slice(0, 4)).toEqual([
      '24/11/2026 12:30',
      'MAIN Priya Nair',
      'Points redeemed',
      '',
    ]);
    expect(cells(bodyRows(title)[4]!)).toEqual(cells(bodyRows(title)[3]!));
    expect(
      footerRows(title)
        .map((row) => cells(row).filter((cell) => cell !== ''))
        .at(-1),
    ).toEqual(['Points redeemed', '₹1,416', '2,832']);
    expect(
      screen.getByText('Totals · Installments: 1 · Redemptions: 4 · Cancelled redemptions: 0'),
    ).toBeVisible();
    // Each row its own key: React warns of none.
    expect(keyWarnings.mock.calls.filter((call) => String(call[0]).includes('same key'))).toEqual(
      [],
    );
    keyWarnings.mockRestore();
  });

  it('asks for the days and branch chosen; a card’s link opens on its own filter', async () => {
    const server = reportServer('owner', path, oneDay);
    const user = await openReport(
      `${PATHS.collectionsReport}?from=2026-11-01&to=2026-11-24&branch=MAIN`,
      title,
    );
    await waitFor(() =>
      expect(bodies(server, path)[0]).toEqual({
        from: '2026-11-01',
        to: '2026-11-24',
        branch: 'MAIN',
        ...firstPage,
      }),
    );
    expect(screen.getByRole('combobox', { name: texts.branch })).toHaveValue('MAIN');

    await user.selectOptions(screen.getByRole('combobox', { name: texts.branch }), 'ANNA');
    await typeDate(user, texts.from, '20/11/2026');
    await typeDate(user, texts.to, '21/11/2026');
    await user.click(screen.getByRole('button', { name: texts.search }));
    await waitFor(() =>
      expect(bodies(server, path).at(-1)).toEqual({
        from: '2026-11-20',
        to: '2026-11-21',
        branch: 'ANNA',
        ...firstPage,
      }),
    );

    // All branches: no branch asked, and Clear goes back to today.
    await user.selectOptions(screen.getByRole('combobox', { name: texts.branch }), '');
    await user.click(screen.getByRole('button', { name: texts.clear }));
    await waitFor(() =>
      expect(bodies(server, path).at(-1)).toEqual({ from: today(), to: today(), ...firstPage }),
    );
    expect(screen.getByRole('group', { name: texts.from }).querySelector('input')).toHaveValue(
      ddmmyyyy(today()),
    );
  });

  it('lists by the day entered when asked, marking an installment entered after its date', async () => {
    const backdated: CollectionRow = {
      ...installment,
      date: '2026-11-19',
      enteredOn: '2026-11-24',
    };
    const server = reportServer(
      'owner',
      path,
      reportAnswer([backdated, redemption], 2, { ...totals, backdated: 1 }),
    );
    const user = await openReport(PATHS.collectionsReport, title);
    await waitFor(() => expect(bodyRows(title)).toHaveLength(2));
    // Dated 19/11, entered 24/11: the row says so, and the totals count it.
    expect(cells(bodyRows(title)[0]!)[0]).toBe('19/11/2026 10:05Backdatedentered 24/11/2026');
    expect(cells(bodyRows(title)[1]!)[0]).toBe('24/11/2026 11:40');
    expect(
      screen.getByText(
        'Totals · Installments: 1 · Redemptions: 1 · Cancelled redemptions: 0 · Backdated: 1',
      ),
    ).toBeVisible();

    // By the day entered: asked of the server, and back to dated on Clear.
    await user.selectOptions(screen.getByRole('combobox', { name: texts.by }), 'entered');
    await user.click(screen.getByRole('button', { name: texts.search }));
    await waitFor(() =>
      expect(bodies(server, path).at(-1)).toEqual({
        from: today(),
        to: today(),
        by: 'entered',
        ...firstPage,
      }),
    );
    await user.click(screen.getByRole('button', { name: texts.clear }));
    await waitFor(() =>
      expect(bodies(server, path).at(-1)).toEqual({ from: today(), to: today(), ...firstPage }),
    );
    expect(screen.getByRole('combobox', { name: texts.by })).toHaveValue('dated');
  });

  it('downloads the whole report as the server’s CSV, with one byte-order mark', async () => {
    downloads = catchDownloads();
    const csv = '\uFEFFDate,Time\r\n24/11/2026,10:05\r\n';
    const server = reportServer('owner', path, (request) =>
      (request.body as { format?: string }).format === 'csv' ? { status: 200, body: csv } : oneDay,
    );
    const user = await openReport(PATHS.collectionsReport, title);
    await waitFor(() => expect(bodyRows(title)).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: texts.csv }));
    await waitFor(() => expect(downloads!.names).toEqual([`collections-${today()}.csv`]));
    expect(bodies(server, path).at(-1)).toEqual({ from: today(), to: today(), format: 'csv' });
    // One byte-order mark, the server's, not two.
    const bytes = await downloads.bytes();
    expect([...bytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x44]);
    expect(await downloads.text()).toBe('Date,Time\r\n24/11/2026,10:05\r\n');
  });

  it('prints the whole report, asking for one large page when it has more than one', async () => {
    let printed = 0;
    window.print = () => {
      printed += 1;
    };
    const many = reportAnswer([installment], 120, { ...totals, installments: 120 });
    const server = reportServer('owner', path, (request) =>
      (request.body as { pageSize: number }).pageSize === LIMITS.reportPageSizeMax
        ? reportAnswer([installment, redemption], 120, totals)
        : many,
    );
    const user = await openReport(PATHS.collectionsReport, title);
    await waitFor(() => expect(dataRows(title)).toHaveLength(1));
    expect(screen.getByText('Page 1 of 3 · 120 rows')).toBeVisible();

    await user.click(screen.getByRole('button', { name: texts.print }));
    await waitFor(() => expect(printed).toBe(1));
    expect(bodies(server, path).at(-1)).toEqual({
      from: today(),
      to: today(),
      page: 1,
      pageSize: LIMITS.reportPageSizeMax,
    });
    const sheet = screen.getByTestId('print-report-collections');
    expect(sheet.querySelectorAll('tr')).toHaveLength(1 + 2 + 8);
    expect(sheet).toHaveTextContent(`${title}${ddmmyyyy(today())}All branches`);
    expect(sheet).toHaveTextContent('The first 2 of 120 rows; the CSV holds them all.');
    const printedCells = [...sheet.querySelectorAll('tbody td')].map((td) => td.textContent);
    expect(printedCells).toContain('MR-2026-00017');
  });
});
