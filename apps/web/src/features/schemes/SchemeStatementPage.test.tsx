import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  SLIP_TEXTS,
  UI_TEXTS,
  addDays,
  type InstallmentReceipt,
  type SchemeRecord,
  type SchemeStatementRow,
} from '@kanak/contract';
import { fakeServer, testBranding, testOwner } from '../../test/fake-server';
import { queryClient } from '../../lib/query-client';
import { renderApp, signedInAs } from '../../test/render';
import { dateShown, ddmmyyyy } from '../../components/DateField.testing';
import { footerRows } from '../../test/tables';
import {
  bodyRows,
  catchDownloads,
  cells,
  ok,
  refused,
  scheme,
  serverError,
  today,
} from './schemeTestKit';

const texts = SCHEME_TEXTS.statement;

const annaNagar = {
  code: 'ANN',
  name: 'Anna Nagar',
  address: '5 2nd Avenue, Anna Nagar, Chennai 600040',
  phone: '+91 44 2626 1001',
};

const rows: SchemeStatementRow[] = [
  {
    date: '2025-04-10',
    narration: 'Installment 1 of 11 · Cash · Receipt 1',
    amount: 5000,
    receiptNo: '1',
    branch: null,
    mode: 'cash',
    reference: '',
  },
  {
    date: '2025-05-12',
    narration: 'Installment 2 of 11 · UPI · Receipt ANN-000004',
    amount: 5000,
    receiptNo: 'ANN-000004',
    branch: annaNagar,
    mode: 'upi',
    reference: 'UTR 7',
  },
];

const statementBody = (schemeRecord: SchemeRecord, data = rows) =>
  ok({ data, custname: 'Lakshmi Iyer', mobileno: '9876543210', scheme: schemeRecord });

function server(schemeRecord: SchemeRecord = scheme({ paid: 2 }), data = rows) {
  signedInAs('meera');
  return fakeServer().on('POST', API_PATHS.schemeStatement, statementBody(schemeRecord, data));
}

async function openScreen() {
  renderApp('/home/scheme-statement');
  await screen.findByRole('heading', { name: PAGE_TITLES.schemeStatement });
  return userEvent.setup();
}

const idInput = () => screen.getByRole('textbox', { name: texts.schemeId });
const generateButton = () => screen.getByRole('button', { name: texts.generate });

async function generate(user: ReturnType<typeof userEvent.setup>, id: string) {
  await user.clear(idInput());
  await user.type(idInput(), id);
  await user.click(generateButton());
}

// The query cache is the app's own singleton: no test sees another's answers.
beforeEach(() => queryClient.clear());

// Each test waits out the customer search's 1-second pause and MUI's dialogs in jsdom.
/** A scheme within its term today: the counter may take its installment. */
const runningScheme = (fields: Parameters<typeof scheme>[0] = {}) =>
  scheme({ startdt: addDays(today(), -60), matdt: addDays(today(), 303), ...fields });

describe('Scheme Statement', { timeout: 40_000 }, () => {
  it('a blank Scheme ID warns "Scheme ID cannot be blank." and sends nothing', async () => {
    const fake = server();
    const user = await openScreen();
    await user.click(generateButton());

    const warning = await screen.findByText(MESSAGES.schemeIdRequired);
    expect(warning.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorWarning');
    expect(fake.sent('POST', API_PATHS.schemeStatement)).toHaveLength(0);
    expect(screen.getByText(MESSAGES.noResults)).toBeInTheDocument();
  });

  it('"abc" as a Scheme ID is told it is no Scheme ID, not that it is blank', async () => {
    const fake = server();
    const user = await openScreen();
    await user.type(screen.getByRole('textbox', { name: texts.schemeId }), 'abc');
    await user.click(generateButton());

    const warning = await screen.findByText(
      'A Scheme ID is a number, e.g. 1024: letters and signs are not part of it.',
    );
    expect(warning.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorWarning');
    expect(screen.queryByText(MESSAGES.schemeIdRequired)).not.toBeInTheDocument();
    expect(fake.sent('POST', API_PATHS.schemeStatement)).toHaveLength(0);
  });

  it('fills Name and Mobile No., lists S no., DD-MM-YYYY dates, narration, amounts and the ₹ total', async () => {
    const fake = server();
    const user = await openScreen();
    await generate(user, '7');

    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(2));
    expect(fake.sent('POST', API_PATHS.schemeStatement)[0]?.body).toEqual({ schemeid: 7 });
    expect(screen.getByRole('textbox', { name: texts.name })).toHaveValue('Lakshmi Iyer');
    expect(screen.getByRole('textbox', { name: texts.name })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: texts.mobile })).toHaveValue('9876543210');
    expect(bodyRows(texts.table).map(cells)).toEqual([
      ['1', '10-04-2025', rows[0]!.narration, '1', '₹5,000'],
      ['2', '12-05-2025', rows[1]!.narration, 'ANN-000004', '₹5,000'],
    ]);
    // Each receipt can be printed again from its row, with the address of the branch that
    // took the payment.
    await user.click(screen.getByRole('button', { name: texts.reprint('ANN-000004') }));
    const reprinted = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.receipt.title('ANN-000004'),
    });
    expect(reprinted).toHaveTextContent(UI_TEXTS.printAddress(annaNagar.address, annaNagar.phone));
    expect(reprinted).toHaveTextContent('UTR 7');
    expect(reprinted).toHaveTextContent(SCHEME_TEXTS.receipt.installmentValue(2, 11));
    // What a receipt carries beyond the payment: the month, the amount in words, the total
    // paid in by then (both rows), and a line for each signature.
    expect(reprinted).toHaveTextContent(`${SCHEME_TEXTS.receipt.forMonth}May 2025`);
    expect(reprinted).toHaveTextContent(
      `${SCHEME_TEXTS.receipt.amountInWords}Five Thousand Rupees Only`,
    );
    expect(reprinted).toHaveTextContent(`${SCHEME_TEXTS.receipt.paidSoFar}₹10,000`);
    expect(reprinted).toHaveTextContent(SLIP_TEXTS.customerSignature);
    expect(reprinted).toHaveTextContent(SLIP_TEXTS.shopSignature('Swarnamahal Jewellers'));
    expect(reprinted).toHaveAttribute('data-paper', 'a4');
    await user.click(within(reprinted).getByRole('button', { name: SCHEME_TEXTS.receipt.close }));
    const table = screen.getByRole('table', { name: texts.table });
    const footer = table.querySelectorAll(':scope > [role="rowgroup"]')[2] as HTMLElement;
    expect(within(footer).getByText(texts.total)).toBeInTheDocument();
    expect(within(footer).getByText('₹10,000')).toBeInTheDocument();
  });

  it('at a counter whose branch prints on an 80 mm roll, the receipt is laid out for the roll', async () => {
    const fake = server();
    fake.on('GET', API_PATHS.me, {
      status: 200,
      body: {
        success: true,
        data: { ...testOwner, branch: { ...annaNagar, receiptPaper: '80mm' } },
      },
    });
    const user = await openScreen();
    await generate(user, '7');
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: texts.reprint('1') }));
    const reprinted = await screen.findByRole('dialog', { name: SCHEME_TEXTS.receipt.title('1') });
    expect(reprinted).toHaveAttribute('data-paper', '80mm');
    expect(reprinted).toHaveTextContent(`${SCHEME_TEXTS.receipt.paidSoFar}₹5,000`);
    expect(reprinted).toHaveTextContent(`${SCHEME_TEXTS.receipt.forMonth}April 2025`);
  });

  it("a weight scheme shows each installment's 22K rate and grams, the total grams and the late rows", async () => {
    const weightRows: SchemeStatementRow[] = [
      { ...rows[0]!, amount: 25000, rate22k: 7250.5, mg: 3448, late: false },
      {
        ...rows[1]!,
        amount: 25000,
        rate22k: 7000,
        mg: 3571,
        late: true,
        branch: { ...annaNagar, state: 'Tamil Nadu' },
      },
    ];
    const fake = server(
      scheme({ paid: 2, amount: 25000, plan: 'GOLD11', kind: 'weight', mg: 7019 }),
      weightRows,
    );
    fake.on('GET', API_PATHS.branding, {
      status: 200,
      body: { success: true, data: { ...testBranding, gstin: '33AABCK1234L1Z5' } },
    });
    const user = await openScreen();
    await generate(user, '7');

    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(2));
    const late = SCHEME_PLAN_TEXTS.late;
    expect(bodyRows(texts.table).map(cells)).toEqual([
      ['1', '10-04-2025', rows[0]!.narration, '1', '₹25,000', '₹7,250.50', '3.448'],
      [
        '2',
        '12-05-2025',
        `${rows[1]!.narration} ${late}`,
        'ANN-000004',
        '₹25,000',
        '₹7,000',
        '3.571',
      ],
    ]);
    expect(footerRows(texts.table).map(cells)).toEqual([
      ['', texts.total, '', '', '₹50,000', '', '7.019'],
    ]);
    expect(screen.getByText(SCHEME_PLAN_TEXTS.gold).nextElementSibling).toHaveTextContent(
      '7.019 g',
    );
    const sheet = screen.getByTestId('print-scheme-statement');
    expect(sheet).toHaveTextContent(`${SCHEME_PLAN_TEXTS.totalGrams}: 7.019 g`);
    expect(sheet).toHaveTextContent('₹7,250.50');

    // Its receipt, printed again: the day's rate, the gold it bought, the shop's GSTIN and
    // the state of the branch that took it.
    await user.click(screen.getByRole('button', { name: texts.reprint('ANN-000004') }));
    const reprinted = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.receipt.title('ANN-000004'),
    });
    expect(reprinted).toHaveTextContent(`${SCHEME_TEXTS.receipt.rate}₹7,000 a gram`);
    expect(reprinted).toHaveTextContent(`${SCHEME_TEXTS.receipt.gold}3.571 g`);
    expect(reprinted).toHaveTextContent(
      `${SCHEME_TEXTS.receipt.gstin}33AABCK1234L1Z5 (Tamil Nadu)`,
    );
  });

  it('a scheme without installments shows "No results yet" and a ₹0 total', async () => {
    server(scheme({ matyn: 'n', paid: 0 }), []);
    const user = await openScreen();
    await generate(user, '7');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: texts.name })).toHaveValue('Lakshmi Iyer'),
    );
    expect(screen.getByText(MESSAGES.noResults)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: texts.table });
    const footer = table.querySelectorAll(':scope > [role="rowgroup"]')[2] as HTMLElement;
    expect(within(footer).getByText('₹0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.print })).toBeDisabled();
    // Inactive: no installments can be added here (activation is on the summary).
    expect(screen.queryByRole('button', { name: texts.addInstallment })).not.toBeInTheDocument();
  });

  it('a refusal shows the server message as a warning; a failure "Error in generating statement."', async () => {
    const fake = server();
    fake.on('POST', API_PATHS.schemeStatement, refused(404, MESSAGES.schemeNotFound));
    const user = await openScreen();
    await generate(user, '999');
    const warning = await screen.findByText(MESSAGES.schemeNotFound);
    expect(warning.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorWarning');

    fake.on('POST', API_PATHS.schemeStatement, serverError);
    await generate(user, '998');
    const error = await screen.findByText(MESSAGES.statementFailed);
    expect(error.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorError');
    expect(screen.getByText(MESSAGES.noResults)).toBeInTheDocument();
  });

  it('Download CSV saves the rows as scheme_statement_{id}.csv', async () => {
    server();
    const downloads = catchDownloads();
    try {
      const user = await openScreen();
      await generate(user, '7');
      await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(2));

      await user.click(screen.getByRole('button', { name: texts.downloadCsv }));
      expect(downloads.names).toEqual(['scheme_statement_7.csv']);
      expect(await downloads.text()).toBe(
        'S no.,Installment Date,Narration,Amount\r\n' +
          `1,10-04-2025,${rows[0]!.narration},5000\r\n` +
          `2,12-05-2025,${rows[1]!.narration},5000\r\n`,
      );
    } finally {
      downloads.restore();
    }
  });

  it('the printout carries the shop, customer, scheme, dates, rows and total; Print opens the browser print', async () => {
    server(scheme({ paid: 2, matdt: null, startdt: '2025-04-10' }));
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const user = await openScreen();
    await generate(user, '7');
    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(2));

    const sheet = await screen.findByTestId('print-scheme-statement');
    expect(sheet).toHaveTextContent('Swarnamahal Jewellers');
    expect(sheet).toHaveTextContent('12 Zaveri Bazaar, Mumbai 400002 · Mobile: +91 22 2342 1928');
    expect(sheet).toHaveTextContent(texts.printTitle(7));
    expect(sheet).toHaveTextContent(texts.printCustomer('Lakshmi Iyer', '9876543210'));
    expect(sheet).toHaveTextContent(texts.printTerm('10-04-2025', '09-04-2026'));
    expect(sheet).toHaveTextContent('12-05-2025');
    expect(sheet).toHaveTextContent('₹10,000');
    // The screen's controls are left off paper.
    expect(idInput().closest('.no-print')).not.toBeNull();

    await user.click(screen.getByRole('button', { name: texts.print }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('Add installment (Active scheme): date defaults to today; records it, shows the receipt and regenerates', async () => {
    const fake = server(runningScheme({ paid: 2 }));
    const receipt: InstallmentReceipt = {
      receiptNo: 'MAIN-000088',
      branch: { code: 'MAIN', name: 'Main', address: '12 Zaveri Bazaar', phone: '+91 22 2342' },
      schemeid: 7,
      custname: 'Lakshmi Iyer',
      mobileno: '9876543210',
      date: today(),
      amount: 5000,
      mode: 'upi',
      reference: 'UTR123',
      installmentNo: 3,
      installments: 11,
      forMonth: today().slice(0, 7),
      paidSoFar: 15000,
    };
    fake.on(
      'POST',
      API_PATHS.addInstallment,
      ok({ message: 'Installment recorded. Receipt MAIN-000088.', data: receipt }),
    );
    const user = await openScreen();
    await generate(user, '7');
    await user.click(await screen.findByRole('button', { name: texts.addInstallment }));

    const dialog = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.installment.title(7),
    });
    expect(dateShown(SCHEME_TEXTS.installment.date, dialog)).toBe(ddmmyyyy(today()));
    await user.selectOptions(within(dialog).getByLabelText(SCHEME_TEXTS.installment.mode), 'upi');
    await user.type(within(dialog).getByLabelText(SCHEME_TEXTS.installment.reference), 'UTR123');
    const before = fake.sent('POST', API_PATHS.schemeStatement).length;
    await user.click(within(dialog).getByRole('button', { name: SCHEME_TEXTS.installment.record }));

    const receiptDialog = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.receipt.title('MAIN-000088'),
    });
    expect(fake.sent('POST', API_PATHS.addInstallment)[0]?.body).toEqual({
      schemeid: 7,
      date: today(),
      mode: 'upi',
      reference: 'UTR123',
    });
    for (const text of [
      'MAIN-000088',
      UI_TEXTS.printAddress('12 Zaveri Bazaar', '+91 22 2342'),
      'Lakshmi Iyer (+91) 9876543210',
      'Scheme 7',
      'UPI',
      '3 of 11',
      '₹5,000',
    ]) {
      expect(receiptDialog).toHaveTextContent(text);
    }
    expect(
      within(receiptDialog).getByRole('button', { name: SCHEME_TEXTS.receipt.print }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(fake.sent('POST', API_PATHS.schemeStatement).length).toBeGreaterThan(before),
    );
    expect(
      await screen.findByText('Installment recorded. Receipt MAIN-000088.'),
    ).toBeInTheDocument();
  });

  it('Add installment: a refusal stays in the dialog so the entry can be corrected', async () => {
    const fake = server(runningScheme({ paid: 2 }));
    fake.on(
      'POST',
      API_PATHS.addInstallment,
      refused(409, 'An installment for 05-2025 is already recorded.'),
    );
    const user = await openScreen();
    await generate(user, '7');
    await user.click(await screen.findByRole('button', { name: texts.addInstallment }));
    const dialog = await screen.findByRole('dialog', { name: SCHEME_TEXTS.installment.title(7) });
    await user.click(within(dialog).getByRole('button', { name: SCHEME_TEXTS.installment.record }));
    expect(
      await within(dialog).findByText('An installment for 05-2025 is already recorded.'),
    ).toBeInTheDocument();
  });

  it('Close scheme appears once all installments are paid (or after maturity) and shows bonus and maturity value first', async () => {
    const fake = server(scheme({ paid: 11, amount: 5000 }));
    // Closing's own figures: one installment late, so the plan's bonus is 10/11 of ₹5,000.
    const figures = {
      bonus: 4545,
      maturityValue: 59545,
      paid: 11,
      onTime: 10,
      redeemBy: '2026-06-03',
      bonusLapsed: false,
    };
    fake.on('POST', API_PATHS.closeSchemePreview, ok({ data: figures }));
    fake.on('POST', API_PATHS.closeScheme, ok({ message: 'Scheme 7 closed.', data: figures }));
    const user = await openScreen();
    await generate(user, '7');
    // All 11 paid: nothing more to add.
    await user.click(await screen.findByRole('button', { name: texts.closeScheme }));
    expect(screen.queryByRole('button', { name: texts.addInstallment })).not.toBeInTheDocument();

    const dialog = await screen.findByRole('dialog', { name: SCHEME_TEXTS.close.title(7) });
    expect(await within(dialog).findByText('10 of 11')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(`${SCHEME_TEXTS.close.paid}11 of 11`);
    expect(dialog).toHaveTextContent(`${SCHEME_TEXTS.close.onTime}10 of 11`);
    expect(dialog).toHaveTextContent('₹55,000');
    expect(dialog).toHaveTextContent(`${SCHEME_TEXTS.close.bonus}₹4,545`);
    expect(dialog).toHaveTextContent(`${SCHEME_TEXTS.close.maturityValue}₹59,545`);
    expect(dialog).toHaveTextContent(`${SCHEME_TEXTS.close.redeemBy}03-06-2026`);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(fake.sent('POST', API_PATHS.closeSchemePreview)[0]?.body).toEqual({ schemeid: 7 });
    expect(fake.sent('POST', API_PATHS.closeScheme)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: SCHEME_TEXTS.close.confirm }));
    expect(await screen.findByText('Scheme 7 closed. Maturity value ₹59,545.')).toBeInTheDocument();
    expect(fake.sent('POST', API_PATHS.closeScheme)[0]?.body).toEqual({ schemeid: 7 });
  });

  it('Close scheme past the days to redeem warns that the bonus has lapsed', async () => {
    const fake = server(scheme({ paid: 11, amount: 5000, redeemBy: '2026-06-03' }));
    const figures = {
      bonus: 0,
      maturityValue: 55000,
      paid: 11,
      onTime: 0,
      redeemBy: '2026-06-03',
      bonusLapsed: true,
    };
    fake.on('POST', API_PATHS.closeSchemePreview, ok({ data: figures }));
    const user = await openScreen();
    await generate(user, '7');
    expect(screen.getByText(SCHEME_PLAN_TEXTS.redeemBy).nextElementSibling).toHaveTextContent(
      '03-06-2026',
    );
    await user.click(await screen.findByRole('button', { name: texts.closeScheme }));
    const dialog = await screen.findByRole('dialog', { name: SCHEME_TEXTS.close.title(7) });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      SCHEME_TEXTS.close.bonusLapsed('03-06-2026'),
    );
    expect(dialog).toHaveTextContent(`${SCHEME_TEXTS.close.maturityValue}₹55,000`);
  });

  it('no Close scheme while installments are due before maturity; offered after maturity', async () => {
    const fake = server(scheme({ paid: 3, startdt: addDays(today(), -100), matdt: null }));
    const user = await openScreen();
    await generate(user, '7');
    expect(await screen.findByRole('button', { name: texts.addInstallment })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.closeScheme })).not.toBeInTheDocument();

    fake.on(
      'POST',
      API_PATHS.schemeStatement,
      statementBody(scheme({ paid: 7, startdt: addDays(today(), -400), matdt: null })),
    );
    await generate(user, '7');
    expect(await screen.findByRole('button', { name: texts.closeScheme })).toBeInTheDocument();
  });
});
