import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  COUNTER_TEXTS,
  LEDGER_TEXTS,
  PAGE_TITLES,
  TIER_STANDING_TEXTS,
  todayIn,
  type MyDayData,
  type Role,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { fakeServer } from '../../test/fake-server';
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
      .on('POST', API_PATHS.redeemTerms, {
        status: 200,
        body: {
          success: true,
          data: {
            balance: 40,
            value: 40,
            pointValue: 1,
            minRedeemPoints: 10,
            tier: 'SILVER',
            tierName: 'Silver',
            spend12m: 150000,
            nextTier: 'GOLD',
            toNextTier: 50000,
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
    expect(server.sent('POST', API_PATHS.redeemTerms)[0]?.body).toEqual({
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
