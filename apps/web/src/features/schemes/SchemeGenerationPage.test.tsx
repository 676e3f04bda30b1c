import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  type SchemePlan,
} from '@kanak/contract';
import { deferred } from '../../test/fake-server';
import { queryClient } from '../../lib/query-client';
import { renderApp } from '../../test/render';
import { dateShown, ddmmyyyy } from '../../components/DateField.testing';
import {
  alertTexts,
  bodyRows,
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

const texts = SCHEME_TEXTS.generation;

async function openScreen() {
  renderApp('/home/scheme-generation');
  await screen.findByRole('heading', { name: PAGE_TITLES.schemeGeneration });
  return userEvent.setup();
}

const amountInput = () => screen.getByRole('textbox', { name: texts.amount });
const generateButton = () => screen.getByRole('button', { name: texts.submit });

async function chooseCustomer(user: ReturnType<typeof userEvent.setup>) {
  await pickCustomer(user, texts.search);
  await waitFor(() =>
    expect(screen.getByRole('textbox', { name: texts.name })).toHaveValue(customer.custname),
  );
  await waitFor(() => expect(generateButton()).toBeEnabled());
}

// The query cache is the app's own singleton: no test sees another's answers.
beforeEach(() => queryClient.clear());

// Each test waits out the customer search's 1-second pause and MUI's dialogs in jsdom.
describe('Scheme Initiation', { timeout: 40_000 }, () => {
  it('shows the form: read-only name, date defaulting to today, amount of at most 7 digits', async () => {
    schemeServer();
    const user = await openScreen();

    expect(screen.getByRole('textbox', { name: texts.name })).toHaveAttribute('readonly');
    expect(dateShown(texts.date)).toBe(ddmmyyyy(today()));
    await user.type(amountInput(), '12a3.4-5678999');
    expect(amountInput()).toHaveValue('1234567');
    // Grouped as the shop writes it, typed or pasted whole: the digits, never cut short.
    await user.clear(amountInput());
    await user.type(amountInput(), '5,000');
    expect(amountInput()).toHaveValue('5000');
    await user.clear(amountInput());
    await user.paste('₹10,00,000');
    expect(amountInput()).toHaveValue('1000000');
    await user.clear(amountInput());
    await user.paste('5,000.50');
    expect(amountInput()).toHaveValue('');
    expect(screen.getByText(MESSAGES.noActiveSchemes)).toBeInTheDocument();
  });

  it('checks in the spec order: customer, then amount, then the pending previous scheme', async () => {
    const server = schemeServer({ schemes: [scheme({ schemeid: 9, matyn: 'n', paid: 0 })] });
    const user = await openScreen();

    await user.click(generateButton());
    expect(await screen.findByText(MESSAGES.selectCustomer)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.selectCustomer).closest('.MuiAlert-root')).toHaveClass(
      'MuiAlert-colorWarning',
    );

    await chooseCustomer(user);
    await user.click(generateButton());
    expect(await screen.findByText(MESSAGES.enterAmount)).toBeInTheDocument();

    await user.type(amountInput(), '5000');
    await user.click(generateButton());
    expect(await screen.findByText(MESSAGES.previousSchemePending)).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.generateScheme)).toHaveLength(0);
    expect(server.sent('POST', API_PATHS.verifyPan)).toHaveLength(0);
  });

  it('lists the schemes: DD-MM-YYYY dates, maturity = start + 364 days when missing, status labels', async () => {
    schemeServer({
      schemes: [
        scheme({ schemeid: 12, startdt: '2025-06-01', matdt: null, matyn: 'n', paid: 0 }),
        scheme({ schemeid: 11, startdt: '2024-04-15', matdt: '2025-04-14', matyn: 'm' }),
        scheme({ schemeid: 10, startdt: '2024-01-01', matdt: null, matyn: 'a', amount: 120000 }),
        scheme({ schemeid: 8, startdt: '2023-01-01', matdt: '2023-12-31', matyn: '' }),
      ],
    });
    const user = await openScreen();
    await chooseCustomer(user);

    await waitFor(() => expect(bodyRows(texts.table)).toHaveLength(4));
    const [first, second, third, fourth] = bodyRows(texts.table).map(cells);
    // An Inactive row is activated where it is listed.
    expect(first).toEqual(['12', '01-06-2025', '31-05-2026', '₹5,000', 'InactiveActivate']);
    expect(second).toEqual(['11', '15-04-2024', '14-04-2025', '₹5,000', 'Completed']);
    // 2024 is a leap year: 1 January + 364 days is 30 December.
    expect(third).toEqual(['10', '01-01-2024', '30-12-2024', '₹1,20,000', 'Active']);
    expect(fourth?.[4]).toBe('InactiveActivate');

    // Only Inactive rows can be cancelled.
    expect(screen.getByRole('button', { name: texts.deleteAction(12) })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.deleteAction(8) })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.deleteAction(11) })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.deleteAction(10) })).not.toBeInTheDocument();
  });

  it('generates 15,999 straight away (no PAN check), then refreshes the list', async () => {
    const server = schemeServer({ schemes: [scheme({ matyn: 'm' })] }).on(
      'POST',
      API_PATHS.generateScheme,
      ok({ message: 'Scheme 31 generated.', data: { schemeid: 31 } }),
    );
    const user = await openScreen();
    await chooseCustomer(user);
    const listCalls = server.sent('POST', API_PATHS.schemes).length;

    await user.type(amountInput(), '15999');
    await user.click(generateButton());

    expect(await screen.findByText('Scheme 31 generated.')).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.verifyPan)).toHaveLength(0);
    expect(screen.queryByText(MESSAGES.panDialogText)).not.toBeInTheDocument();
    const [request] = server.sent('POST', API_PATHS.generateScheme);
    expect(request?.body).toEqual({
      custid: customer.custid,
      mobileno: customer.mobileno,
      custname: customer.custname,
      startdt: today(),
      amount: 15999,
    });
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() =>
      expect(server.sent('POST', API_PATHS.schemes).length).toBeGreaterThan(listCalls),
    );
    expect(amountInput()).toHaveValue('');
  });

  it('16,000 without a PAN opens the PAN dialog; 9 characters are refused; a valid PAN is saved, then the scheme generated', async () => {
    const server = schemeServer()
      .on('POST', API_PATHS.verifyPan, ok({ data: { pan: '' } }))
      .on('POST', API_PATHS.updatePan, ok({ message: 'PAN saved.' }))
      .on('POST', API_PATHS.generateScheme, ok({ message: 'Scheme 32 generated.' }));
    const user = await openScreen();
    await chooseCustomer(user);

    await user.type(amountInput(), '16000');
    await user.click(generateButton());

    const dialog = await screen.findByRole('dialog', { name: texts.panTitle });
    expect(within(dialog).getByText(MESSAGES.panDialogText)).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.verifyPan)[0]?.body).toEqual({ custid: customer.custid });
    expect(server.sent('POST', API_PATHS.generateScheme)).toHaveLength(0);

    const pan = within(dialog).getByRole('textbox', { name: texts.pan });
    expect(pan).toHaveAttribute('maxlength', String(LIMITS.panLength));
    await user.type(pan, 'abcde1234');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    expect(await within(dialog).findByText(MESSAGES.panFormat)).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.updatePan)).toHaveLength(0);

    await user.type(pan, 'fZZ');
    expect(pan).toHaveValue('ABCDE1234F');
    expect(within(dialog).queryByText(MESSAGES.panFormat)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: texts.save }));

    expect(await screen.findByText('Scheme 32 generated.')).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.updatePan)[0]?.body).toEqual({
      custid: customer.custid,
      pan: 'ABCDE1234F',
    });
    expect(server.sent('POST', API_PATHS.generateScheme)[0]?.body).toMatchObject({ amount: 16000 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('16,000 with a valid PAN on file generates without the dialog', async () => {
    const server = schemeServer()
      .on('POST', API_PATHS.verifyPan, ok({ data: { pan: 'ABCDE1234F' } }))
      .on('POST', API_PATHS.generateScheme, ok({ message: 'Scheme 33 generated.' }));
    const user = await openScreen();
    await chooseCustomer(user);
    await user.type(amountInput(), '16000');
    await user.click(generateButton());

    expect(await screen.findByText('Scheme 33 generated.')).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.verifyPan)).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('PAN dialog: a refusal shows inline, a failure as a toast; CANCEL sends nothing more', async () => {
    let reply: object = refused(400, MESSAGES.panFormat);
    const server = schemeServer()
      .on('POST', API_PATHS.verifyPan, ok({ data: { pan: 'ABC' } }))
      .on('POST', API_PATHS.updatePan, () => reply as { status: number });
    const user = await openScreen();
    await chooseCustomer(user);
    await user.type(amountInput(), '25000');
    await user.click(generateButton());

    const dialog = await screen.findByRole('dialog', { name: texts.panTitle });
    await user.type(within(dialog).getByRole('textbox', { name: texts.pan }), 'ABCDE1234F');
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    expect(await within(dialog).findByText(MESSAGES.panUpdateRefused)).toBeInTheDocument();

    reply = serverError;
    await user.click(within(dialog).getByRole('button', { name: texts.save }));
    const toast = await screen.findByText(MESSAGES.panUpdateFailed);
    expect(toast.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorError');

    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.sent('POST', API_PATHS.generateScheme)).toHaveLength(0);
  });

  it("offers the active plans, the standard one chosen; a weight plan's terms and today's 22K rate show, and it is sent", async () => {
    const planTexts = SCHEME_PLAN_TEXTS;
    const plan = (fields: Partial<SchemePlan>): SchemePlan => ({
      code: 'STD',
      name: 'Standard scheme',
      kind: 'value',
      installments: 11,
      minAmount: 1000,
      bonusPercent: 100,
      graceDays: 7,
      redeemWithinDays: 60,
      active: true,
      schemes: 40,
      ...fields,
    });
    const server = schemeServer()
      .on(
        'GET',
        API_PATHS.schemePlans,
        ok({
          data: [
            plan({}),
            plan({
              code: 'GOLD11',
              name: 'Swarna 11',
              kind: 'weight',
              minAmount: 2000,
              bonusPercent: 50,
            }),
            plan({ code: 'OLD', name: 'Withdrawn', active: false }),
          ],
        }),
      )
      .on(
        'GET',
        API_PATHS.goldRateToday,
        ok({
          data: {
            date: today(),
            rate22k: 7250.5,
            rate24k: 7910,
            enteredBy: 'Admin',
            updatedAt: new Date().toISOString(),
          },
        }),
      )
      .on('POST', API_PATHS.generateScheme, ok({ message: 'Scheme 34 generated.' }));
    const user = await openScreen();

    const picker = screen.getByRole('combobox', { name: planTexts.plan });
    await within(picker).findByRole('option', { name: 'GOLD11 · Swarna 11' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['STD · Standard scheme', 'GOLD11 · Swarna 11']);
    expect(picker).toHaveValue('STD');
    expect(screen.getByText(planTexts.terms(11, '₹1,000', 100, 7))).toBeInTheDocument();
    expect(screen.queryByText(planTexts.weightNote, { exact: false })).not.toBeInTheDocument();

    await user.selectOptions(picker, 'GOLD11');
    expect(screen.getByText(planTexts.terms(11, '₹2,000', 50, 7))).toBeInTheDocument();
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent(planTexts.weightNote);
    await waitFor(() => expect(note).toHaveTextContent(planTexts.rateToday('₹7,250.50')));

    await chooseCustomer(user);
    await user.type(amountInput(), '5000');
    await user.click(generateButton());
    expect(await screen.findByText('Scheme 34 generated.')).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.generateScheme)[0]?.body).toEqual({
      custid: customer.custid,
      mobileno: customer.mobileno,
      custname: customer.custname,
      startdt: today(),
      amount: 5000,
      plan: 'GOLD11',
    });
  });

  it('a failed PAN check shows "Error in verifying PAN."', async () => {
    const server = schemeServer().on('POST', API_PATHS.verifyPan, serverError);
    const user = await openScreen();
    await chooseCustomer(user);
    await user.type(amountInput(), '50000');
    await user.click(generateButton());

    expect(await screen.findByText(MESSAGES.panVerifyFailed)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.generateScheme)).toHaveLength(0);
  });

  it('generate: a refusal shows the server message as an error, a failure the fixed text', async () => {
    let reply: object = refused(409, MESSAGES.previousSchemePending);
    schemeServer().on('POST', API_PATHS.generateScheme, () => reply as { status: number });
    const user = await openScreen();
    await chooseCustomer(user);
    await user.type(amountInput(), '5000');
    await user.click(generateButton());

    const refusal = await screen.findByText(MESSAGES.previousSchemePending);
    expect(refusal.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorError');

    reply = serverError;
    await user.click(generateButton());
    expect(await screen.findByText(MESSAGES.schemeGenerateFailed)).toBeInTheDocument();
    expect(alertTexts()).not.toContain('boom');
  });

  it('a failed scheme list shows "Error in getting customer previous schemes."', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    schemeServer().on('POST', API_PATHS.schemes, serverError);
    const user = await openScreen();
    await pickCustomer(user, texts.search);
    const error = await screen.findByText(MESSAGES.schemesLoadFailed);
    expect(error.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorError');
    expect(logged).toHaveBeenCalled();
  });

  it('Delete Scheme: asks first; CONFIRM is disabled in flight; a refusal shows inline; success refreshes', async () => {
    const pending = deferred();
    let reply: 'pending' | 'refused' | 'ok' = 'refused';
    const server = schemeServer({
      schemes: [scheme({ schemeid: 14, matyn: 'n', paid: 0 })],
    }).on('POST', API_PATHS.deleteScheme, () => {
      if (reply === 'refused') return refused(409, MESSAGES.onlyInactiveCancellable);
      if (reply === 'pending') return pending.handler();
      return ok({ message: 'Scheme cancelled.' });
    });
    const user = await openScreen();
    await chooseCustomer(user);

    await user.click(await screen.findByRole('button', { name: texts.deleteAction(14) }));
    let dialog = await screen.findByRole('dialog', { name: texts.deleteTitle(14) });
    expect(within(dialog).getByText(MESSAGES.deleteSchemeQuestion)).toBeInTheDocument();

    // CANCEL closes it and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.sent('POST', API_PATHS.deleteScheme)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: texts.deleteAction(14) }));
    dialog = await screen.findByRole('dialog', { name: texts.deleteTitle(14) });
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    expect(await within(dialog).findByText(MESSAGES.schemeDeleteFailed)).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.deleteScheme)[0]?.body).toEqual({ schemeid: 14 });

    reply = 'pending';
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: texts.confirm })).toBeDisabled(),
    );
    expect(within(dialog).getByRole('button', { name: texts.cancel })).toBeDisabled();

    const listCalls = server.sent('POST', API_PATHS.schemes).length;
    server.on('POST', API_PATHS.schemes, ok({ data: [] }));
    pending.release(ok({ message: 'Scheme cancelled.' }));
    expect(await screen.findByText('Scheme cancelled.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(server.sent('POST', API_PATHS.schemes).length).toBeGreaterThan(listCalls),
    );
    expect(await screen.findByText(MESSAGES.noActiveSchemes)).toBeInTheDocument();
  });

  it('a failed delete shows the toast "Error in deleting this scheme."', async () => {
    schemeServer({ schemes: [scheme({ schemeid: 15, matyn: 'n', paid: 0 })] }).on(
      'POST',
      API_PATHS.deleteScheme,
      serverError,
    );
    const user = await openScreen();
    await chooseCustomer(user);
    await user.click(await screen.findByRole('button', { name: texts.deleteAction(15) }));
    const dialog = await screen.findByRole('dialog', { name: texts.deleteTitle(15) });
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));

    const toast = await screen.findByText(MESSAGES.schemeDeleteFailed);
    expect(toast.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorError');
    expect(dialog).not.toContainElement(toast);
  });
});
