import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  COUNTER_HUB_TEXTS,
  COUNTER_TEXTS,
  LEDGER_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  POINTS_SUMMARY_TEXTS,
  SCHEME_TEXTS,
  TIER_STANDING_TEXTS,
  formatMonthName,
  formatSlashDate,
  monthAfter,
  todayIn,
  type CounterCustomer,
  type CounterScheme,
  type InstallmentReceipt,
  type MyDayData,
  type Role,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { deferred, fakeServer } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const texts = COUNTER_TEXTS;
const today = todayIn('Asia/Kolkata');
const MAIN = {
  code: 'MAIN',
  name: 'Zaveri Bazaar',
  address: '12 Zaveri Bazaar',
  phone: '2223421928',
};
const myDay: MyDayData = {
  date: today,
  installments: [
    {
      time: '10:42',
      receipt: 'MAIN/2026/000017',
      schemeid: 64,
      custname: 'Meera Iyer',
      mobileno: '9500000001',
      mode: 'upi',
      amount: 2000,
    },
  ],
  totals: { installments: 1, amount: 2000 },
};

const hubTexts = COUNTER_HUB_TEXTS;
const thisMonth = today.slice(0, 7);

/** The counter's read of a customer: no points, no schemes unless given. */
function hub(fields: Partial<CounterCustomer> = {}): CounterCustomer {
  return {
    custid: 7,
    custname: 'Meera Iyer',
    mobileno: '9500000001',
    points: { balance: 0, value: 0, expiringSoon: 0, expiring: [] },
    schemes: [],
    ...fields,
  };
}

/** A running standard scheme whose installment for this month is due. */
function running(fields: Partial<CounterScheme> = {}): CounterScheme {
  return {
    schemeid: 64,
    plan: null,
    amount: 2000,
    installments: 11,
    paid: 1,
    startdt: '2026-01-05',
    matdt: '2027-01-04',
    nextDue: '2026-02-05',
    overdue: 1,
    due: { month: thisMonth, advance: false },
    ...fields,
  };
}

function counterServer(role: Role) {
  signedInAs(role);
  setScreenWidth(1366);
  return fakeServer()
    .on('GET', API_PATHS.me, {
      status: 200,
      body: {
        success: true,
        data: { username: role, name: role, role, branch: MAIN, mustChangePassword: false },
      },
    })
    .on('GET', API_PATHS.branches, { status: 200, body: { success: true, data: [MAIN] } })
    .on('GET', API_PATHS.myDay, { status: 200, body: { success: true, data: myDay } })
    .on('GET', API_PATHS.dashboard, { status: 500, body: { success: false, message: 'not here' } });
}

describe('the counter home', { timeout: 60_000 }, () => {
  it("is where a cashier lands: the search focused, the quick actions, today's own receipts", async () => {
    const server = counterServer('cashier');
    renderApp(PATHS.home);
    await screen.findByRole('heading', { name: PAGE_TITLES.counter }, { timeout: 20_000 });
    const search = screen.getByRole('combobox', { name: texts.search });
    await waitFor(() => expect(search).toHaveFocus());
    const actions = screen.getByRole('navigation', { name: texts.actions });
    expect(within(actions).getByRole('link', { name: texts.creditPoints })).toHaveAttribute(
      'href',
      PATHS.loyaltyPoints,
    );
    expect(within(actions).getByRole('link', { name: texts.takeInstallment })).toHaveAttribute(
      'href',
      PATHS.schemeStatement,
    );
    expect(within(actions).getByRole('link', { name: texts.startScheme })).toHaveAttribute(
      'href',
      PATHS.schemeGeneration,
    );
    expect(within(actions).getByRole('link', { name: texts.redeemPoints })).toHaveAttribute(
      'href',
      PATHS.redeemPoints,
    );
    const table = await screen.findByRole('table', { name: texts.today });
    const row = await within(table).findByRole('row', { name: /MAIN\/2026\/000017/ });
    expect(row).toHaveTextContent('Meera Iyer');
    expect(row).toHaveTextContent('₹2,000');
    expect(within(row).getByRole('link', { name: /64/ })).toHaveAttribute(
      'href',
      `${PATHS.schemeStatement}?schemeid=64`,
    );
    expect(screen.getByText(texts.totals(1, '₹2,000'))).toBeInTheDocument();
    expect(server.sent('GET', API_PATHS.dashboard)).toEqual([]);
  });

  it('says so when the cashier took nothing today', async () => {
    counterServer('cashier').on('GET', API_PATHS.myDay, {
      status: 200,
      body: {
        success: true,
        data: { ...myDay, installments: [], totals: { installments: 0, amount: 0 } },
      },
    });
    renderApp(PATHS.counter);
    expect(await screen.findByText(texts.none, {}, { timeout: 20_000 })).toBeInTheDocument();
  });

  it('says when today could not be read, and not that nothing was taken', async () => {
    counterServer('cashier').on('GET', API_PATHS.myDay, {
      status: 500,
      body: { success: false, message: 'down' },
    });
    renderApp(PATHS.counter);
    expect(await screen.findByText(texts.failed, {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByText(texts.none)).toBeNull();
  });

  it('leaves a manager on the dashboard', async () => {
    counterServer('manager');
    renderApp(PATHS.home);
    await screen.findByRole('heading', { name: PAGE_TITLES.dashboard }, { timeout: 20_000 });
    expect(screen.queryByRole('heading', { name: PAGE_TITLES.counter })).toBeNull();
  });

  it('shows the chosen customer’s tier and carries them to each quick action, whose screen opens with them', async () => {
    const meera = { CUSTNAME: 'Meera Iyer', MOBILENO: '9500000001' };
    const server = counterServer('cashier')
      .on('GET', API_PATHS.searchCustomers, {
        status: 200,
        body: { success: true, data: [meera] },
      })
      .on('POST', API_PATHS.counterCustomer, {
        status: 200,
        body: {
          success: true,
          data: {
            ...hub({ custid: 7, custname: meera.CUSTNAME, mobileno: meera.MOBILENO }),
            tier: {
              tier: 'SILVER',
              tierName: 'Silver',
              spend12m: 150000,
              nextTier: 'GOLD',
              toNextTier: 50000,
            },
          },
        },
      })
      .on('POST', API_PATHS.customerData, {
        status: 200,
        body: {
          success: true,
          data: { custid: 7, mobileno: meera.MOBILENO, custname: meera.CUSTNAME, points: 40 },
        },
      });
    renderApp(PATHS.counter);
    await screen.findByRole('heading', { name: PAGE_TITLES.counter }, { timeout: 20_000 });
    const user = userEvent.setup();
    await pickCustomer(user, texts.search, '95000', meera);
    expect(await screen.findByText('Silver')).toBeInTheDocument();
    expect(screen.getByText(TIER_STANDING_TEXTS.spend12m('₹1,50,000'))).toBeInTheDocument();
    expect(
      screen.getByText(TIER_STANDING_TEXTS.toNext('₹50,000', 'GOLD'), { exact: false }),
    ).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.counterCustomer)[0]?.body).toEqual({
      mobile: meera.MOBILENO,
    });
    const actions = screen.getByRole('navigation', { name: texts.actions });
    const address = (path: string) => `${path}?customer=${meera.MOBILENO}`;
    expect(within(actions).getByRole('link', { name: texts.creditPoints })).toHaveAttribute(
      'href',
      address(PATHS.loyaltyPoints),
    );
    // Every scheme of theirs, whenever it started: the summary's own From (1 April) hid older ones.
    expect(within(actions).getByRole('link', { name: texts.takeInstallment })).toHaveAttribute(
      'href',
      `${PATHS.schemeSummary}?status=All&from=1900-01-01&to=${today}&mobile=${meera.MOBILENO}&name=Meera+Iyer`,
    );
    expect(within(actions).getByRole('link', { name: texts.startScheme })).toHaveAttribute(
      'href',
      address(PATHS.schemeGeneration),
    );
    expect(within(actions).getByRole('link', { name: texts.redeemPoints })).toHaveAttribute(
      'href',
      address(PATHS.redeemPoints),
    );

    await user.click(within(actions).getByRole('link', { name: texts.creditPoints }));
    await screen.findByRole('heading', { name: PAGE_TITLES.loyaltyPoints }, { timeout: 20_000 });
    await waitFor(() =>
      expect(
        screen.getByLabelText(LEDGER_TEXTS.loyaltyPoints.mobile, { selector: 'input' }),
      ).toHaveValue(meera.MOBILENO),
    );
  });

  it('opens a quick action empty when the address names no customer on file', async () => {
    counterServer('cashier').on('GET', API_PATHS.searchCustomers, {
      status: 200,
      body: { success: true, data: [] },
    });
    renderApp(`${PATHS.loyaltyPoints}?customer=9500000009`);
    await screen.findByRole('heading', { name: PAGE_TITLES.loyaltyPoints }, { timeout: 20_000 });
    const mobile = screen.getByLabelText(LEDGER_TEXTS.loyaltyPoints.mobile, { selector: 'input' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mobile).toHaveValue('');
  });
});

describe('the counter hub, once a customer is chosen', { timeout: 60_000 }, () => {
  const meera = { CUSTNAME: 'Meera Iyer', MOBILENO: '9500000001' };
  const receipt: InstallmentReceipt = {
    receiptNo: 'MAIN-000018',
    branch: null,
    schemeid: 64,
    custname: meera.CUSTNAME,
    mobileno: meera.MOBILENO,
    date: today,
    amount: 2000,
    mode: 'cash',
    reference: '',
    installmentNo: 2,
    installments: 11,
    forMonth: thisMonth,
    paidSoFar: 4000,
  };

  function hubServer(customer: CounterCustomer | (() => CounterCustomer)) {
    return counterServer('cashier')
      .on('GET', API_PATHS.searchCustomers, { status: 200, body: { success: true, data: [meera] } })
      .on('POST', API_PATHS.counterCustomer, () => ({
        status: 200,
        body: { success: true, data: typeof customer === 'function' ? customer() : customer },
      }));
  }

  async function openCounter() {
    renderApp(PATHS.counter);
    await screen.findByRole('heading', { name: PAGE_TITLES.counter }, { timeout: 20_000 });
    return userEvent.setup();
  }

  it('shows the points, their worth, when those expiring soon expire, and each running scheme with what is due and overdue', async () => {
    hubServer(
      hub({
        points: {
          balance: 680,
          value: 680,
          expiringSoon: 180,
          expiring: [
            { points: 150, expiresOn: '2026-03-20' },
            { points: 30, expiresOn: '2026-04-01' },
          ],
        },
        schemes: [
          running({
            schemeid: 71,
            plan: { code: 'ELEVEN', name: 'Eleven months', kind: 'value' },
            amount: 3000,
            paid: 2,
            nextDue: null,
            overdue: 0,
            due: { month: monthAfter(thisMonth), advance: true },
          }),
          running(),
          running({ schemeid: 80, due: null, overdue: 0 }),
        ],
      }),
    );
    const user = await openCounter();
    await pickCustomer(user, texts.search, '95000', meera);
    const section = await screen.findByRole('region', { name: hubTexts.region(meera.CUSTNAME) });
    expect(within(section).getByText(hubTexts.balance('680'))).toBeInTheDocument();
    expect(
      within(section).getByText(POINTS_SUMMARY_TEXTS.worth('₹680'), { exact: false }),
    ).toBeInTheDocument();
    expect(within(section).getByText(POINTS_SUMMARY_TEXTS.expiring('180'))).toBeInTheDocument();
    expect(
      within(section).getByText(
        `${hubTexts.expiring}: ${hubTexts.expiringOn('150', formatSlashDate('2026-03-20'))} · ${hubTexts.expiringOn('30', formatSlashDate('2026-04-01'))}`,
      ),
    ).toBeInTheDocument();

    const schemes = within(section).getAllByRole('listitem');
    expect(schemes).toHaveLength(3);
    expect(schemes[0]).toHaveTextContent('Scheme 71 · Eleven months · ₹3,000 a month');
    expect(
      within(schemes[0]!).getByRole('button', {
        name: hubTexts.takeAdvance('₹3,000', formatMonthName(monthAfter(thisMonth))),
      }),
    ).toBeInTheDocument();
    expect(schemes[1]).toHaveTextContent(`Scheme 64 · ${hubTexts.standardPlan} · ₹2,000 a month`);
    expect(schemes[1]).toHaveTextContent(
      `${hubTexts.paid(1, 11)} · ${hubTexts.nextDue(formatSlashDate('2026-02-05'))}`,
    );
    expect(within(schemes[1]!).getByText(hubTexts.overdue(1))).toBeInTheDocument();
    expect(
      within(schemes[1]!).getByRole('button', {
        name: hubTexts.take('₹2,000', formatMonthName(thisMonth)),
      }),
    ).toBeInTheDocument();
    expect(within(schemes[2]!).queryByRole('button')).toBeNull();
    expect(within(schemes[2]!).getByText(hubTexts.nothingDue)).toBeInTheDocument();
    expect(
      within(schemes[2]!).getByRole('link', { name: SCHEME_TEXTS.statement.open(80) }),
    ).toHaveAttribute('href', `${PATHS.schemeStatement}?schemeid=80`);
  });

  it('says when the customer has no running scheme, and when they could not be read', async () => {
    let fail = true;
    hubServer(hub()).on('POST', API_PATHS.counterCustomer, () =>
      fail
        ? { status: 500, body: { success: false, message: 'down' } }
        : { status: 200, body: { success: true, data: hub() } },
    );
    const user = await openCounter();
    await pickCustomer(user, texts.search, '95000', meera);
    expect(await screen.findByText(hubTexts.failed)).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: hubTexts.retry }));
    expect(await screen.findByText(hubTexts.noSchemes)).toBeInTheDocument();
    expect(screen.queryByText(hubTexts.failed)).toBeNull();
  });

  it('takes the due installment in three presses by keyboard: Enter picks, Tab and Enter take, Enter saves; the receipt prints and the day is read again', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    let paid = false;
    const server = hubServer(() =>
      hub({
        schemes: [
          paid
            ? running({ paid: 2, overdue: 0, due: { month: monthAfter(thisMonth), advance: true } })
            : running(),
        ],
      }),
    );
    const answer = deferred();
    server.on('POST', API_PATHS.addInstallment, answer.handler);
    const user = await openCounter();
    const search = screen.getByRole('combobox', { name: texts.search });
    await user.type(search, '95000');
    await screen.findByRole('option', { name: LEDGER_TEXTS.customerSearch.optionLabel(meera) });
    await user.keyboard('{Enter}');
    const take = await screen.findByRole('button', {
      name: hubTexts.take('₹2,000', formatMonthName(thisMonth)),
    });
    await user.tab();
    expect(take).toHaveFocus();
    await user.keyboard('{Enter}');

    const dialog = await screen.findByRole('dialog', { name: hubTexts.dialog.title(64) });
    expect(dialog).toHaveTextContent('₹2,000');
    expect(dialog).toHaveTextContent(formatMonthName(thisMonth));
    expect(dialog).toHaveTextContent(formatSlashDate(today));
    expect(within(dialog).getByLabelText(SCHEME_TEXTS.installment.mode)).toHaveValue('cash');
    const save = within(dialog).getByRole('button', { name: hubTexts.dialog.save });
    expect(save).toHaveFocus();
    const daysAsked = server.sent('GET', API_PATHS.myDay).length;
    await user.keyboard('{Enter}');
    // A second Enter while the first is on its way sends nothing more.
    await user.keyboard('{Enter}');
    paid = true;
    answer.release({
      status: 200,
      body: {
        success: true,
        message: MESSAGES.installmentRecorded(receipt.receiptNo),
        data: receipt,
      },
    });

    const slip = await screen.findByRole('dialog', {
      name: SCHEME_TEXTS.receipt.title(receipt.receiptNo),
    });
    expect(slip).toHaveTextContent('₹2,000');
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    const sent = server.sent('POST', API_PATHS.addInstallment);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({ schemeid: 64, date: today, mode: 'cash', reference: '' });
    expect(sent[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    // The customer and the day are read again: the next month is now offered, in advance.
    await waitFor(() =>
      expect(server.sent('GET', API_PATHS.myDay).length).toBeGreaterThan(daysAsked),
    );
    await user.click(within(slip).getByRole('button', { name: SCHEME_TEXTS.receipt.close }));
    expect(
      await screen.findByRole('button', {
        name: hubTexts.takeAdvance('₹2,000', formatMonthName(monthAfter(thisMonth))),
      }),
    ).toBeInTheDocument();
    print.mockRestore();
  });

  it('keeps a refusal in the dialog, and takes the installment in advance by another mode', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const server = hubServer(
      hub({ schemes: [running({ due: { month: monthAfter(thisMonth), advance: true } })] }),
    );
    const refusal = 'Cash for one scheme may not reach ₹2,00,000.';
    server.on('POST', API_PATHS.addInstallment, (request) =>
      (request.body as { mode: string }).mode === 'cash'
        ? { status: 409, body: { success: false, message: refusal } }
        : {
            status: 200,
            body: {
              success: true,
              message: 'Installment recorded.',
              data: { ...receipt, mode: 'upi', forMonth: monthAfter(thisMonth) },
            },
          },
    );
    const user = await openCounter();
    await pickCustomer(user, texts.search, '95000', meera);
    await user.click(
      await screen.findByRole('button', {
        name: hubTexts.takeAdvance('₹2,000', formatMonthName(monthAfter(thisMonth))),
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: hubTexts.dialog.title(64) });
    await user.click(within(dialog).getByRole('button', { name: hubTexts.dialog.save }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    await user.selectOptions(within(dialog).getByLabelText(SCHEME_TEXTS.installment.mode), 'upi');
    await user.type(within(dialog).getByLabelText(SCHEME_TEXTS.installment.reference), 'UTR 77');
    await user.click(within(dialog).getByRole('button', { name: hubTexts.dialog.save }));
    await screen.findByRole('dialog', { name: SCHEME_TEXTS.receipt.title(receipt.receiptNo) });
    const sent = server.sent('POST', API_PATHS.addInstallment);
    expect(sent.map((request) => request.body)).toEqual([
      { schemeid: 64, date: today, mode: 'cash', reference: '', advance: true },
      { schemeid: 64, date: today, mode: 'upi', reference: 'UTR 77', advance: true },
    ]);
    // A refused press did nothing: the next is a new action with its own key.
    expect(sent[1]!.headers['Idempotency-Key']).not.toBe(sent[0]!.headers['Idempotency-Key']);
    print.mockRestore();
  });

  it('offers to add a customer for a whole number nobody has, and opens Customer Profile with it', async () => {
    const unknown = '9500000042';
    counterServer('cashier').on('GET', API_PATHS.searchCustomers, {
      status: 200,
      body: { success: true, data: [] },
    });
    const user = await openCounter();
    const search = screen.getByRole('combobox', { name: texts.search });
    // Part of a number: no offer yet.
    await user.type(search, unknown.slice(0, 6));
    expect(await screen.findByText(LEDGER_TEXTS.customerSearch.noOptions)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: hubTexts.addCustomer })).toBeNull();
    await user.type(search, unknown.slice(6));
    const add = await screen.findByRole(
      'link',
      { name: hubTexts.addCustomer },
      { timeout: 10_000 },
    );
    expect(add).toHaveAttribute('href', `${PATHS.customerProfile}?customer=${unknown}`);
    await user.click(add);
    await screen.findByRole('heading', { name: PAGE_TITLES.customerProfile }, { timeout: 20_000 });
    expect(screen.getByRole('combobox', { name: LEDGER_TEXTS.customerProfile.search })).toHaveValue(
      unknown,
    );
  });
});
