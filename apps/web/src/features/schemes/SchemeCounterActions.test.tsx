import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  PAGE_TITLES,
  SCHEME_TEXTS,
  addDays,
  formatMonth,
  monthAfter,
  type InstallmentReceipt,
  type SchemeRecord,
  type SchemeStatementRow,
} from '@kanak/contract';
import { deferred, testOwner } from '../../test/fake-server';
import { queryClient } from '../../lib/query-client';
import { renderApp } from '../../test/render';
import { customer, ok, pickCustomer, scheme, schemeServer, today } from './schemeTestKit';

/**
 * The scheme actions where the counter works: Activate on Scheme Initiation and on the
 * statement, only the actions the role may take, Add installment off once this month is paid
 * (with the next month in advance on offer), and DUPLICATE on a reprinted receipt.
 */
const statementTexts = SCHEME_TEXTS.statement;
const thisMonth = today().slice(0, 7);
const nextMonth = monthAfter(thisMonth);

const installmentRow = (date: string, receiptNo: string, period = date.slice(0, 7)) =>
  ({
    date,
    narration: `Installment · Receipt ${receiptNo}`,
    amount: 5000,
    receiptNo,
    branch: null,
    mode: 'cash',
    reference: '',
    period,
  }) satisfies SchemeStatementRow;

const receipt: InstallmentReceipt = {
  receiptNo: 'MAIN-000090',
  branch: null,
  schemeid: 7,
  custname: customer.custname,
  mobileno: customer.mobileno,
  date: today(),
  amount: 5000,
  mode: 'upi',
  reference: 'UTR 5',
  installmentNo: 1,
  installments: 11,
  forMonth: today().slice(0, 7),
  paidSoFar: 5000,
};

/** A scheme running from 40 days ago, so this month and next are within its term. */
const running = (fields: Partial<SchemeRecord> = {}) =>
  scheme({ startdt: addDays(today(), -40), matdt: addDays(today(), 324), ...fields });

function asRole(role: 'owner' | 'manager' | 'cashier') {
  return schemeServer({ schemes: [running({ schemeid: 7, matyn: 'n', paid: 0 })] }).on(
    'GET',
    API_PATHS.me,
    ok({ data: { ...testOwner, role } }),
  );
}

async function openStatement(
  role: 'owner' | 'manager' | 'cashier',
  record: SchemeRecord,
  rows: SchemeStatementRow[],
) {
  const fake = asRole(role).on(
    'POST',
    API_PATHS.schemeStatement,
    ok({ data: rows, custname: customer.custname, mobileno: customer.mobileno, scheme: record }),
  );
  renderApp(`/home/scheme-statement?schemeid=${record.schemeid}`);
  await screen.findByRole('heading', { name: PAGE_TITLES.schemeStatement });
  await screen.findByText(statementTexts.paid(record.paid, record.installments));
  return { fake, user: userEvent.setup() };
}

beforeEach(() => queryClient.clear());

describe('scheme actions at the counter', { timeout: 40_000 }, () => {
  it('activates a new scheme on its Scheme Initiation row: mode, reference, then the receipt', async () => {
    const fake = asRole('cashier').on(
      'POST',
      API_PATHS.activateScheme,
      ok({ message: 'Scheme 7 activated.', data: receipt }),
    );
    renderApp('/home/scheme-generation');
    await screen.findByRole('heading', { name: PAGE_TITLES.schemeGeneration });
    const user = userEvent.setup();
    await pickCustomer(user, SCHEME_TEXTS.generation.search);

    await user.click(
      await screen.findByRole('button', { name: SCHEME_TEXTS.activation.action(7) }),
    );
    const dialog = await screen.findByRole('dialog', { name: SCHEME_TEXTS.activation.title(7) });
    await user.selectOptions(within(dialog).getByLabelText(SCHEME_TEXTS.activation.mode), 'upi');
    await user.type(within(dialog).getByLabelText(SCHEME_TEXTS.activation.reference), 'UTR 5');
    await user.click(
      within(dialog).getByRole('button', { name: SCHEME_TEXTS.activation.activate }),
    );

    const printed = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.receipt.title('MAIN-000090'),
    });
    expect(within(printed).getByRole('button', { name: SCHEME_TEXTS.receipt.print })).toBeVisible();
    // The first print is the original.
    expect(within(printed).queryByText(SCHEME_TEXTS.receipt.duplicate)).toBeNull();
    expect(fake.sent('POST', API_PATHS.activateScheme)[0]?.body).toEqual({
      schemeid: 7,
      date: today(),
      mode: 'upi',
      reference: 'UTR 5',
    });
  });

  it('offers Activate on an Inactive scheme’s statement', async () => {
    const { fake, user } = await openStatement('cashier', running({ matyn: 'n', paid: 0 }), []);
    fake.on(
      'POST',
      API_PATHS.activateScheme,
      ok({ message: 'Scheme 7 activated.', data: receipt }),
    );
    await user.click(screen.getByRole('button', { name: SCHEME_TEXTS.activation.action(7) }));
    const dialog = await screen.findByRole('dialog', { name: SCHEME_TEXTS.activation.title(7) });
    await user.click(
      within(dialog).getByRole('button', { name: SCHEME_TEXTS.activation.activate }),
    );
    await screen.findByRole('dialog', { name: SCHEME_TEXTS.receipt.title('MAIN-000090') });
    expect(fake.sent('POST', API_PATHS.activateScheme)).toHaveLength(1);
  });

  it('shows a cashier no Delete on Scheme Initiation', async () => {
    asRole('cashier');
    renderApp('/home/scheme-generation');
    await screen.findByRole('heading', { name: PAGE_TITLES.schemeGeneration });
    await pickCustomer(userEvent.setup(), SCHEME_TEXTS.generation.search);
    await screen.findByRole('button', { name: SCHEME_TEXTS.activation.action(7) });
    expect(
      screen.queryByRole('button', { name: SCHEME_TEXTS.generation.deleteAction(7) }),
    ).toBeNull();
  });

  it('shows a manager Delete on Scheme Initiation', async () => {
    asRole('manager');
    renderApp('/home/scheme-generation');
    await screen.findByRole('heading', { name: PAGE_TITLES.schemeGeneration });
    await pickCustomer(userEvent.setup(), SCHEME_TEXTS.generation.search);
    expect(
      await screen.findByRole('button', { name: SCHEME_TEXTS.generation.deleteAction(7) }),
    ).toBeVisible();
  });

  it('shows a cashier no Close scheme on a closable statement', async () => {
    const rows = [installmentRow(addDays(today(), -40), 'MAIN-000001')];
    await openStatement('cashier', running({ paid: 11 }), rows);
    expect(screen.queryByRole('button', { name: statementTexts.closeScheme })).toBeNull();
  });

  it('shows a manager Close scheme on a closable statement', async () => {
    const rows = [installmentRow(addDays(today(), -40), 'MAIN-000001')];
    await openStatement('manager', running({ paid: 11 }), rows);
    expect(screen.getByRole('button', { name: statementTexts.closeScheme })).toBeVisible();
  });

  it('turns Add installment off with the reason once this month is paid, and takes next month in advance', async () => {
    const rows = [
      installmentRow(addDays(today(), -40), 'MAIN-000001'),
      installmentRow(today(), 'MAIN-000002'),
    ];
    const { fake, user } = await openStatement('cashier', running({ paid: 2 }), rows);
    const add = screen.getByRole('button', { name: statementTexts.addInstallment });
    expect(add).toBeDisabled();
    const reason = SCHEME_TEXTS.installment.monthPaid(formatMonth(thisMonth));
    expect(screen.getByText(reason)).toBeVisible();
    expect(add).toHaveAccessibleDescription(reason);

    fake.on(
      'POST',
      API_PATHS.addInstallment,
      ok({ message: 'Installment recorded.', data: { ...receipt, installmentNo: 3 } }),
    );
    await user.click(
      screen.getByRole('button', {
        name: SCHEME_TEXTS.installment.advanceButton(formatMonth(nextMonth)),
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.installment.advanceTitle(7, formatMonth(nextMonth)),
    });
    await user.click(within(dialog).getByRole('button', { name: SCHEME_TEXTS.installment.record }));
    await screen.findByRole('dialog', { name: SCHEME_TEXTS.receipt.title('MAIN-000090') });
    expect(fake.sent('POST', API_PATHS.addInstallment)[0]?.body).toMatchObject({
      schemeid: 7,
      date: today(),
      advance: true,
    });
  });

  it('sends an advance pressed twice once, its RECORD off while it is sent', async () => {
    const rows = [
      installmentRow(addDays(today(), -40), 'MAIN-000001'),
      installmentRow(today(), 'MAIN-000002'),
    ];
    const { fake, user } = await openStatement('cashier', running({ paid: 2 }), rows);
    const pending = deferred();
    fake.on('POST', API_PATHS.addInstallment, pending.handler);
    await user.click(
      screen.getByRole('button', {
        name: SCHEME_TEXTS.installment.advanceButton(formatMonth(nextMonth)),
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.installment.advanceTitle(7, formatMonth(nextMonth)),
    });
    await user.dblClick(
      within(dialog).getByRole('button', { name: SCHEME_TEXTS.installment.record }),
    );
    // The spinner's name joins the button's while it is sent.
    await waitFor(() =>
      expect(
        within(dialog).getByRole('button', { name: new RegExp(SCHEME_TEXTS.installment.record) }),
      ).toBeDisabled(),
    );
    pending.release(
      ok({ message: 'Installment recorded.', data: { ...receipt, installmentNo: 3 } }),
    );
    await screen.findByRole('dialog', { name: SCHEME_TEXTS.receipt.title('MAIN-000090') });
    expect(fake.sent('POST', API_PATHS.addInstallment)).toHaveLength(1);
  });

  it('offers no second advance once next month is paid too', async () => {
    const rows = [
      installmentRow(today(), 'MAIN-000002'),
      installmentRow(today(), 'MAIN-000003', nextMonth),
    ];
    await openStatement('cashier', running({ paid: 2 }), rows);
    expect(screen.getByRole('button', { name: statementTexts.addInstallment })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /in advance$/ })).toBeNull();
    expect(
      screen.getByText(SCHEME_TEXTS.installment.nextAlsoPaid(formatMonth(nextMonth)), {
        exact: false,
      }),
    ).toBeVisible();
  });

  it('keeps Add installment on while this month is unpaid', async () => {
    const rows = [installmentRow(addDays(today(), -40), 'MAIN-000001', '2000-01')];
    await openStatement('cashier', running({ paid: 1 }), rows);
    expect(screen.getByRole('button', { name: statementTexts.addInstallment })).toBeEnabled();
  });

  it('offers no installment on a paid-up scheme, not even a disabled one', async () => {
    const rows = [installmentRow(today(), 'MAIN-000011')];
    await openStatement('cashier', running({ paid: 11 }), rows);
    expect(screen.queryByRole('button', { name: statementTexts.addInstallment })).toBeNull();
    expect(screen.queryByRole('button', { name: /in advance$/ })).toBeNull();
  });

  it('marks a reprinted receipt DUPLICATE', async () => {
    const rows = [installmentRow(addDays(today(), -40), 'MAIN-000001')];
    const { user } = await openStatement('cashier', running({ paid: 1 }), rows);
    await user.click(screen.getByRole('button', { name: statementTexts.reprint('MAIN-000001') }));
    const dialog = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.receipt.title('MAIN-000001'),
    });
    await waitFor(() =>
      expect(within(dialog).getByText(SCHEME_TEXTS.receipt.duplicate)).toBeVisible(),
    );
  });
});
