import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  LEDGER_TEXTS,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  UI_TEXTS,
  type InstallmentReceipt,
  type SchemeSummaryRow,
} from '@kanak/contract';
import { deferred } from '../../test/fake-server';
import { queryClient } from '../../lib/query-client';
import { goBack, renderApp } from '../../test/render';
import { dateField, dateShown, ddmmyyyy, typeDate } from '../../components/DateField.testing';
import {
  bodyRows,
  catchDownloads,
  cells,
  customer,
  ok,
  pickCustomer,
  refused,
  scheme,
  schemeServer,
  serverError,
  today,
} from './schemeTestKit';

const texts = SCHEME_TEXTS.summary;
const SFDATE = '2025-04-01';

const summaryRows: SchemeSummaryRow[] = [
  {
    schemeid: 21,
    custname: 'Lakshmi Iyer',
    mobileno: '9876543210',
    startdt: '2025-05-02',
    amount: 5000,
    matyn: 'a',
  },
  {
    schemeid: 22,
    custname: 'Ravi Menon',
    mobileno: '9123456780',
    startdt: '2025-06-15',
    amount: 20000,
    matyn: 'n',
  },
  {
    schemeid: 23,
    custname: 'Asha Rao',
    mobileno: '9988776655',
    startdt: '2025-07-20',
    amount: 125000,
    matyn: 'm',
  },
];

function server(rows: SchemeSummaryRow[] = summaryRows) {
  return schemeServer()
    .on('GET', API_PATHS.financialYear, ok({ data: { sfdate: SFDATE } }))
    .on('POST', API_PATHS.schemeSummary, ok({ data: rows, total: 150000, count: rows.length }));
}

async function openScreen(path = '/home/scheme-summary') {
  renderApp(path);
  // The screen's code loads on first use: slow when it is the first test run.
  await screen.findByRole('heading', { name: PAGE_TITLES.schemeSummary }, { timeout: 10_000 });
  return userEvent.setup();
}

const generateButton = () => screen.getByRole('button', { name: texts.generate });

async function generate(user: ReturnType<typeof userEvent.setup>) {
  await waitFor(() => expect(dateShown(texts.from)).toBe(ddmmyyyy(SFDATE)));
  await user.click(generateButton());
}

// The query cache is the app's own singleton: no test sees another's answers.
beforeEach(() => queryClient.clear());

// Each test waits out the customer search's 1-second pause and MUI's dialogs in jsdom.
describe('Scheme Summary', { timeout: 40_000 }, () => {
  it('defaults: status All (All, Active, Inactive, Matured), From = financial-year start, To = today; sends them', async () => {
    const fake = server();
    const user = await openScreen();

    const status = screen.getByLabelText(texts.status);
    expect(status).toHaveValue('All');
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Active', 'Inactive', 'Matured']);
    expect(screen.getByRole('combobox', { name: texts.search })).toBeInTheDocument();
    await waitFor(() => expect(dateShown(texts.from)).toBe(ddmmyyyy(SFDATE)));
    expect(dateShown(texts.to)).toBe(ddmmyyyy(today()));
    expect(screen.getByText(MESSAGES.noSummaryResults)).toBeInTheDocument();

    await user.click(generateButton());
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));
    expect(fake.sent('POST', API_PATHS.schemeSummary)[0]?.body).toEqual({
      selected: 'All',
      formData: { mobileno: '', datefrom: SFDATE, dateto: today() },
      page: 1,
      pageSize: LIMITS.summaryPageSize,
    });
  });

  it('sends the chosen customer, status and dates', async () => {
    const fake = server();
    const user = await openScreen();
    await pickCustomer(user, texts.search);
    await user.selectOptions(screen.getByLabelText(texts.status), 'Matured');
    await waitFor(() => expect(dateShown(texts.from)).toBe(ddmmyyyy(SFDATE)));
    await typeDate(user, texts.from, '01/05/2025');
    await user.click(generateButton());

    await waitFor(() => expect(fake.sent('POST', API_PATHS.schemeSummary)).toHaveLength(1));
    expect(fake.sent('POST', API_PATHS.schemeSummary)[0]?.body).toEqual({
      selected: 'Matured',
      formData: { mobileno: customer.mobileno, datefrom: '2025-05-01', dateto: today() },
      page: 1,
      pageSize: LIMITS.summaryPageSize,
    });
  });

  it('a link with the filter in its address opens that summary, its filter in the form', async () => {
    const fake = server([summaryRows[2]!]);
    const name = encodeURIComponent(customer.custname);
    await openScreen(
      `/home/scheme-summary?status=Matured&from=2025-05-01&to=${today()}&mobile=${customer.mobileno}&name=${name}`,
    );

    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(1));
    expect(fake.sent('POST', API_PATHS.schemeSummary)[0]?.body).toEqual({
      selected: 'Matured',
      formData: { mobileno: customer.mobileno, datefrom: '2025-05-01', dateto: today() },
      page: 1,
      pageSize: LIMITS.summaryPageSize,
    });
    expect(screen.getByLabelText(texts.status)).toHaveValue('Matured');
    expect(dateShown(texts.from)).toBe('01/05/2025');
    expect(dateShown(texts.to)).toBe(ddmmyyyy(today()));
    expect(screen.getByRole('combobox', { name: texts.search })).toHaveValue(
      LEDGER_TEXTS.customerSearch.optionLabel({
        CUSTNAME: customer.custname,
        MOBILENO: customer.mobileno,
      }),
    );
  });

  it('Generate Summary puts the filter in the address; Back returns to the summary before', async () => {
    const fake = schemeServer()
      .on('GET', API_PATHS.financialYear, ok({ data: { sfdate: SFDATE } }))
      .on('POST', API_PATHS.schemeSummary, ({ body }) => {
        const { selected } = body as { selected: string };
        const rows = selected === 'Matured' ? summaryRows.slice(2) : summaryRows;
        return ok({ data: rows, total: 0, count: rows.length });
      });
    const user = await openScreen();
    const address = () => new URLSearchParams(screen.getByTestId('current-search').textContent);
    await generate(user);
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));
    expect(address().get('status')).toBe('All');

    await user.selectOptions(screen.getByLabelText(texts.status), 'Matured');
    await user.click(generateButton());
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(1));
    expect(address().get('status')).toBe('Matured');
    expect(address().get('from')).toBe(SFDATE);

    await goBack();
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));
    expect(screen.getByLabelText(texts.status)).toHaveValue('All');
    expect(address().get('status')).toBe('All');
    expect(fake.sent('POST', API_PATHS.schemeSummary).map((call) => call.body)).toMatchObject([
      { selected: 'All' },
      { selected: 'Matured' },
      { selected: 'All' },
    ]);

    // Back to before the first Generate Summary: no summary asked, the list empty.
    await goBack();
    await waitFor(() => expect(screen.getByText(MESSAGES.noSummaryResults)).toBeInTheDocument());
    expect(address().toString()).toBe('');
  });

  it('lists the rows (DD-MM-YYYY, ₹ amounts, status labels) in a 280 px body at least 700 px wide, with the total', async () => {
    server();
    const user = await openScreen();
    await generate(user);
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));

    expect(bodyRows(texts.table).map(cells)).toEqual([
      ['21', 'Lakshmi Iyer', '9876543210', '02-05-2025', '₹5,000', 'Active'],
      ['22', 'Ravi Menon', '9123456780', '15-06-2025', '₹20,000', 'InactiveActivate'],
      ['23', 'Asha Rao', '9988776655', '20-07-2025', '₹1,25,000', 'Completed'],
    ]);
    const table = screen.getByRole('table', { name: texts.table });
    const footer = table.querySelectorAll(':scope > [role="rowgroup"]')[2] as HTMLElement;
    expect(cells(within(footer).getByRole('row'))).toEqual(['', 'Total', '', '', '₹1,50,000', '']);
    const body = table.querySelectorAll(':scope > [role="rowgroup"]')[1] as HTMLElement;
    expect(getComputedStyle(body).height).toBe(`${LIMITS.summaryTableBodyHeightPx}px`);
    expect(getComputedStyle(table).minWidth).toBe(`${LIMITS.summaryTableMinWidthPx}px`);
  });

  it('success false clears the list and warns "No records match the specified filters."', async () => {
    const fake = server();
    const user = await openScreen();
    await generate(user);
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));

    // The same filter again, now matching nothing (the list must not keep the older rows).
    fake.on(
      'POST',
      API_PATHS.schemeSummary,
      ok({ success: false, message: MESSAGES.noMatchingRecords, data: [] }),
    );
    await user.click(generateButton());

    const warning = await screen.findByText(MESSAGES.noMatchingRecords);
    expect(warning.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorWarning');
    await waitFor(() => expect(screen.getByText(MESSAGES.noSummaryResults)).toBeInTheDocument());
    expect(screen.queryByText('Lakshmi Iyer')).not.toBeInTheDocument();
  });

  it('a failed request shows "Error in generating summary."; Generate Summary is disabled while loading', async () => {
    const pending = deferred();
    const fake = server();
    fake.on('POST', API_PATHS.schemeSummary, pending.handler);
    const user = await openScreen();
    await generate(user);
    await waitFor(() => expect(generateButton()).toBeDisabled());

    pending.release(serverError);
    const error = await screen.findByText(MESSAGES.summaryFailed);
    expect(error.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorError');
    await waitFor(() => expect(generateButton()).toBeEnabled());
  });

  it('a row click opens the statement modal unless the scheme is Inactive; Go back closes it', async () => {
    const fake = server().on(
      'POST',
      API_PATHS.schemeStatement,
      ok({
        data: [
          { date: '2025-05-02', narration: 'Installment 1 of 11 · Cash · Receipt 3', amount: 5000 },
        ],
        custname: 'Lakshmi Iyer',
        mobileno: '9876543210',
        scheme: scheme({ schemeid: 21, startdt: '2025-05-02', matdt: '2026-05-01' }),
      }),
    );
    const user = await openScreen();
    await generate(user);
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));

    // Inactive ('n'): no statement; its activation button instead.
    await user.click(within(bodyRows(texts.table)[1]!).getByText('Ravi Menon'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fake.sent('POST', API_PATHS.schemeStatement)).toHaveLength(0);

    await user.click(within(bodyRows(texts.table)[0]!).getByText('Lakshmi Iyer'));
    const modal = await screen.findByRole('dialog', { name: texts.statementTitle(21) });
    expect(fake.sent('POST', API_PATHS.schemeStatement)[0]?.body).toEqual({ schemeid: 21 });
    expect(
      await within(modal).findByText('Installment 1 of 11 · Cash · Receipt 3'),
    ).toBeInTheDocument();
    expect(bodyRows(SCHEME_TEXTS.statement.table).map(cells)).toEqual([
      ['1', '02-05-2025', 'Installment 1 of 11 · Cash · Receipt 3', '', '₹5,000'],
    ]);
    await user.click(within(modal).getByRole('button', { name: texts.goBack }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Keyboard: Enter on a focused row opens it too.
    bodyRows(texts.table)[2]!.focus();
    await user.keyboard('{Enter}');
    expect(
      await screen.findByRole('dialog', { name: texts.statementTitle(23) }),
    ).toBeInTheDocument();
  });

  it('the statement modal is empty when the statement fails, even after an earlier success (logged only)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = server().on(
      'POST',
      API_PATHS.schemeStatement,
      ok({
        data: [{ date: '2025-05-02', narration: 'Installment 1 of 11', amount: 5000 }],
        custname: 'Lakshmi Iyer',
        mobileno: '9876543210',
        scheme: scheme({ schemeid: 21 }),
      }),
    );
    const user = await openScreen();
    await generate(user);
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));
    await user.click(within(bodyRows(texts.table)[0]!).getByText('Lakshmi Iyer'));
    let modal = await screen.findByRole('dialog', { name: texts.statementTitle(21) });
    expect(await within(modal).findByText('Installment 1 of 11')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: texts.goBack }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fake.on('POST', API_PATHS.schemeStatement, refused(404, MESSAGES.schemeNotFound));
    await user.click(within(bodyRows(texts.table)[0]!).getByText('Lakshmi Iyer'));
    modal = await screen.findByRole('dialog', { name: texts.statementTitle(21) });
    await waitFor(() =>
      expect(logged).toHaveBeenCalledWith('Summary statement failed', expect.anything()),
    );
    expect(await within(modal).findByText(MESSAGES.noResults)).toBeInTheDocument();
    expect(within(modal).queryByText('Installment 1 of 11')).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.schemeNotFound)).not.toBeInTheDocument();
  });

  it('activation: the dialog (date today, mode, reference) activates the scheme, shows the receipt number and regenerates the summary', async () => {
    const receipt: InstallmentReceipt = {
      receiptNo: 'MAIN-000057',
      branch: { code: 'MAIN', name: 'Main', address: '12 Zaveri Bazaar', phone: '+91 22 2342' },
      schemeid: 22,
      custname: 'Ravi Menon',
      mobileno: '9123456780',
      date: today(),
      amount: 20000,
      mode: 'card',
      reference: 'AUTH9',
      installmentNo: 1,
      installments: 11,
      forMonth: today().slice(0, 7),
      paidSoFar: 20000,
    };
    const fake = server().on(
      'POST',
      API_PATHS.activateScheme,
      ok({ message: 'Scheme 22 activated.', data: receipt }),
    );
    const user = await openScreen();
    await generate(user);
    await user.click(
      await screen.findByRole('button', { name: SCHEME_TEXTS.activation.action(22) }),
    );

    const dialog = await screen.findByRole('dialog', { name: SCHEME_TEXTS.activation.title(22) });
    const date = SCHEME_TEXTS.activation.date;
    expect(dateShown(date, dialog)).toBe(ddmmyyyy(today()));
    // Not before the scheme's start (2025-06-15): an earlier date marks the field invalid.
    await typeDate(user, date, '14/06/2025', dialog);
    expect(dateField(date, dialog)).toHaveAttribute('aria-invalid', 'true');
    await typeDate(user, date, ddmmyyyy(today()), dialog);
    expect(dateField(date, dialog)).toHaveAttribute('aria-invalid', 'false');
    expect(dialog).toHaveTextContent('₹20,000');
    await user.selectOptions(within(dialog).getByLabelText(SCHEME_TEXTS.activation.mode), 'card');
    await user.type(within(dialog).getByLabelText(SCHEME_TEXTS.activation.reference), 'AUTH9');
    const before = fake.sent('POST', API_PATHS.schemeSummary).length;
    await user.click(
      within(dialog).getByRole('button', { name: SCHEME_TEXTS.activation.activate }),
    );

    expect(
      await screen.findByText(
        SCHEME_TEXTS.activation.activated('Scheme 22 activated.', 'MAIN-000057'),
      ),
    ).toBeInTheDocument();
    expect(fake.sent('POST', API_PATHS.activateScheme)[0]?.body).toEqual({
      schemeid: 22,
      date: today(),
      mode: 'card',
      reference: 'AUTH9',
    });
    expect(
      await screen.findByRole('dialog', { name: SCHEME_TEXTS.receipt.title('MAIN-000057') }),
    ).toHaveTextContent('1 of 11');
    expect(
      screen.queryByRole('dialog', { name: SCHEME_TEXTS.activation.title(22), hidden: true }),
    ).not.toBeInTheDocument();
    await waitFor(() =>
      expect(fake.sent('POST', API_PATHS.schemeSummary).length).toBeGreaterThan(before),
    );
  });

  it('activation: a refusal shows in the dialog; nothing else changes', async () => {
    server().on(
      'POST',
      API_PATHS.activateScheme,
      refused(
        400,
        "The installment date must be within the scheme's term, 15-06-2025 to 14-06-2026.",
      ),
    );
    const user = await openScreen();
    await generate(user);
    await user.click(
      await screen.findByRole('button', { name: SCHEME_TEXTS.activation.action(22) }),
    );
    const dialog = await screen.findByRole('dialog', { name: SCHEME_TEXTS.activation.title(22) });
    await user.click(
      within(dialog).getByRole('button', { name: SCHEME_TEXTS.activation.activate }),
    );
    expect(await within(dialog).findByText(/must be within the scheme's term/)).toBeInTheDocument();
  });

  it('Download CSV saves the listed rows; Print prints', async () => {
    server();
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const downloads = catchDownloads();
    try {
      const user = await openScreen();
      await generate(user);
      await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(3));
      await user.click(screen.getByRole('button', { name: texts.downloadCsv }));
      expect(downloads.names).toEqual([`scheme_summary_${SFDATE}_${today()}.csv`]);
      expect(await downloads.text()).toBe(
        'Scheme ID,Name,Mobile No,Start Date,Amount (₹),Status\r\n' +
          '21,Lakshmi Iyer,9876543210,02-05-2025,5000,Active\r\n' +
          '22,Ravi Menon,9123456780,15-06-2025,20000,Inactive\r\n' +
          '23,Asha Rao,9988776655,20-07-2025,125000,Completed\r\n',
      );
      await user.click(screen.getByRole('button', { name: texts.print }));
      expect(print).toHaveBeenCalledTimes(1);
      expect(screen.getByTestId('print-scheme-summary')).toHaveTextContent('₹1,50,000');
    } finally {
      downloads.restore();
    }
  });

  describe('a filter of more rows than a page', () => {
    // 250 schemes: pages of 100, 100 and 50; the amounts add up to 250 × 1,000.
    const many: SchemeSummaryRow[] = Array.from({ length: 250 }, (_, i) => ({
      schemeid: 1000 + i,
      custname: `Saver ${i}`,
      mobileno: `98${String(i).padStart(8, '0')}`,
      startdt: '2025-05-02',
      amount: 1000,
      matyn: 'a',
    }));
    const pagedServer = () =>
      schemeServer()
        .on('GET', API_PATHS.financialYear, ok({ data: { sfdate: SFDATE } }))
        .on('POST', API_PATHS.schemeSummary, ({ body }) => {
          const { page, pageSize } = body as { page?: number; pageSize?: number };
          // Without page and pageSize: every row, as the original call.
          if (page === undefined) return ok({ data: many, total: 250_000 });
          const size = pageSize ?? 100;
          const rows = many.slice((page - 1) * size, page * size);
          return ok({ data: rows, total: 250_000, count: 250, page, pageSize: size });
        });
    const footerCells = () => {
      const table = screen.getByRole('table', { name: texts.table });
      const footer = table.querySelectorAll(':scope > [role="rowgroup"]')[2] as HTMLElement;
      return cells(within(footer).getByRole('row'));
    };

    it('shows a page at a time with the count and amount of the whole filter', async () => {
      const fake = pagedServer();
      const user = await openScreen();
      await generate(user);
      await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(100));
      expect(screen.getByText(texts.pageOf(1, 3, 250))).toBeInTheDocument();
      expect(footerCells()).toEqual(['', 'Total', '', '', '₹2,50,000', '']);
      expect(screen.getByRole('button', { name: UI_TEXTS.pager.previous })).toBeDisabled();

      await user.click(screen.getByRole('button', { name: UI_TEXTS.pager.next }));
      await waitFor(() => expect(screen.getByText('Saver 100')).toBeInTheDocument());
      expect(fake.sent('POST', API_PATHS.schemeSummary).at(-1)?.body).toMatchObject({
        page: 2,
        pageSize: 100,
      });
      expect(screen.getByText(texts.pageOf(2, 3, 250))).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: UI_TEXTS.pager.next }));
      await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(50));
      expect(screen.getByRole('button', { name: UI_TEXTS.pager.next })).toBeDisabled();
      expect(footerCells()).toEqual(['', 'Total', '', '', '₹2,50,000', '']);

      // Generate Summary starts again at the first page.
      await user.click(generateButton());
      await waitFor(() => expect(screen.getByText(texts.pageOf(1, 3, 250))).toBeInTheDocument());
      expect(fake.sent('POST', API_PATHS.schemeSummary).at(-1)?.body).toMatchObject({ page: 1 });
    });

    let downloads: ReturnType<typeof catchDownloads>;
    beforeEach(() => {
      downloads = catchDownloads();
    });
    afterEach(() => downloads.restore());

    /** The screen on the first of three pages, with the browser's print caught. */
    async function onFirstOfThree() {
      const fake = pagedServer();
      const print = vi.spyOn(window, 'print').mockImplementation(() => {});
      const user = await openScreen();
      await generate(user);
      await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(100));
      return { fake, print, user };
    }

    it('Download CSV and Print cover every row of the filter, fetched in one call', async () => {
      const { fake, print, user } = await onFirstOfThree();
      await user.click(screen.getByRole('button', { name: texts.downloadCsv }));
      await waitFor(() => expect(downloads.names).toHaveLength(1));
      const lines = (await downloads.text()).split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(251);
      expect(lines.at(-1)).toBe('1249,Saver 249,9800000249,02-05-2025,1000,Active');
      expect(fake.sent('POST', API_PATHS.schemeSummary).at(-1)?.body).toEqual({
        selected: 'All',
        formData: { mobileno: '', datefrom: SFDATE, dateto: today() },
      });

      await user.click(screen.getByRole('button', { name: texts.print }));
      await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
      const sheet = screen.getByTestId('print-scheme-summary');
      expect(sheet).toHaveTextContent('Saver 249');
      expect(sheet).toHaveTextContent('₹2,50,000');
      // The screen still shows its page.
      expect(bodyRows(texts.table)).toHaveLength(100);
    });

    it('a failed fetch of every row saves and prints nothing, with the summary’s error', async () => {
      const { fake, print, user } = await onFirstOfThree();
      fake.on('POST', API_PATHS.schemeSummary, serverError);
      await user.click(screen.getByRole('button', { name: texts.print }));
      expect(await screen.findByText(MESSAGES.summaryFailed)).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: texts.downloadCsv }));
      expect(print).not.toHaveBeenCalled();
      expect(downloads.names).toEqual([]);
      expect(screen.queryByTestId('print-scheme-summary')).not.toBeInTheDocument();
    });
  });
});
