import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  DASHBOARD_TEXTS,
  GOLD_RATE_TEXTS,
  ONLINE_REFUND_TEXTS,
  PAGE_TITLES,
  todayIn,
  type DashboardData,
  type OnlineRefund,
  type Role,
} from '@kanak/contract';
import { fakeServer, type Reply } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const texts = DASHBOARD_TEXTS;
const today = todayIn('Asia/Kolkata');
const MAIN = {
  code: 'MAIN',
  name: 'Zaveri Bazaar',
  address: '12 Zaveri Bazaar',
  phone: '2223421928',
};
const ANNA = { code: 'ANNA', name: 'Anna Nagar', address: '4 2nd Avenue', phone: '4426161928' };

const collections = (amount: number, installments: number, upi = 0) => ({
  amount,
  installments,
  byMode: { cash: amount - upi, upi, card: 0, bank: 0, cheque: 0, online: 0 },
});

const months = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`);
const figures: DashboardData = {
  today: { collections: collections(25000, 3, 20000), pointsIssued: 1200 },
  month: {
    collections: collections(1234567, 41),
    collectionsLastMonth: collections(987654, 38),
    pointsIssued: 45678,
    pointsIssuedLastMonth: 39000,
  },
  points: { outstanding: 2345678, value: 586419.5 },
  schemes: {
    active: 812,
    monthlyCommitment: 4060000,
    maturingIn30Days: 27,
    overdueCount: 64,
    overdueAmount: 320000,
  },
  series: {
    months,
    pointsIssued: months.map((_, i) => 1000 * (i + 1)),
    pointsRedeemed: months.map((_, i) => 100 * i),
    pointsExpired: months.map(() => 0),
    collections: months.map((_, i) => 100000 + i),
  },
};

function dashboardServer(
  role: Role,
  reply: Reply = { status: 200, body: { success: true, data: figures } },
) {
  signedInAs(role);
  setScreenWidth(1366);
  return fakeServer()
    .on('GET', API_PATHS.me, {
      status: 200,
      body: {
        success: true,
        data: {
          username: role,
          name: role,
          role,
          branch: role === 'owner' ? null : MAIN,
          mustChangePassword: false,
        },
      },
    })
    .on('GET', API_PATHS.branches, { status: 200, body: { success: true, data: [MAIN, ANNA] } })
    .on('GET', API_PATHS.dashboard, reply)
    .on('GET', API_PATHS.goldRateToday, { status: 200, body: { success: true, data: null } })
    .on('GET', API_PATHS.onlineRefunds, { status: 200, body: { success: true, data: [] } });
}

const figureCard = (name: RegExp) => screen.getByRole('link', { name });

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Dashboard', { timeout: 60_000 }, () => {
  it('shows the owner the chain’s figures in en-IN, each opening its report', async () => {
    const server = dashboardServer('owner');
    renderApp(PATHS.home);
    await screen.findByRole('heading', { name: PAGE_TITLES.dashboard }, { timeout: 20_000 });

    const today_ = await screen.findByRole('link', { name: /^Today Installments collected/ });
    expect(server.sent('GET', API_PATHS.dashboard)[0]!.params).toEqual({});
    expect(today_).toHaveTextContent('₹25,000');
    expect(today_).toHaveTextContent('3 installments');
    expect(today_).toHaveTextContent('Cash ₹5,000 · UPI ₹20,000');
    expect(today_).toHaveAttribute('href', `${PATHS.collectionsReport}?from=${today}&to=${today}`);

    const month = figureCard(/^This month Installments collected/);
    expect(month).toHaveTextContent('₹12,34,567');
    expect(month).toHaveTextContent('Last month ₹9,87,654');
    expect(month).toHaveAttribute(
      'href',
      `${PATHS.collectionsReport}?from=${today.slice(0, 8)}01&to=${today}`,
    );
    const issued = figureCard(/^This month Points issued/);
    expect(issued).toHaveTextContent('45,678Last month 39,000Today 1,200');
    const outstanding = figureCard(/^Points outstanding/);
    expect(outstanding).toHaveTextContent('23,45,678worth ₹5,86,419.50');
    expect(outstanding).toHaveAttribute('href', PATHS.pointsLiabilityReport);
    const maturing = figureCard(/^Maturing in 30 days/);
    expect(maturing).toHaveTextContent(/^Maturing in 30 days27Open/);
    expect(maturing).toHaveAttribute('href', PATHS.maturingReport);
    const overdue = figureCard(/^Overdue installments/);
    expect(overdue).toHaveTextContent('64₹3,20,000 overdue');
    expect(overdue).toHaveAttribute('href', PATHS.overdueReport);
    expect(overdue).toHaveTextContent(texts.openReport(PAGE_TITLES.overdueReport));
    // No rate yet today: the card says so and opens the screen to enter it.
    const goldRate = await screen.findByRole('link', {
      name: `Today ${GOLD_RATE_TEXTS.cardTitle} ${GOLD_RATE_TEXTS.notEntered} ${GOLD_RATE_TEXTS.enterNow}`,
    });
    expect(goldRate).toHaveAttribute('href', PATHS.goldRate);
    // Active schemes have no report of their own: a figure, not a link.
    const active = screen.getByRole('heading', { name: texts.activeSchemes }).parentElement!;
    expect(active).toHaveTextContent('812₹40,60,000 a month');
    expect(within(active).queryByRole('link')).toBeNull();

    // The charts: named, and their figures month by month for a screen reader.
    const points = screen.getByRole('figure', { name: texts.chartPoints });
    expect(points).toHaveAccessibleDescription(
      expect.stringContaining(
        'Jan 2025: Issued 1,000, Redeemed 0, Expired 0; Feb 2025: Issued 2,000',
      ),
    );
    const collected = screen.getByRole('figure', { name: texts.chartCollections });
    expect(collected).toHaveAccessibleDescription(
      expect.stringContaining('Dec 2025: Collected (₹) ₹1,00,011'),
    );
  });

  it('shows one branch’s figures when the owner chooses it, and its reports open on it', async () => {
    const server = dashboardServer('owner');
    renderApp(PATHS.home);
    const user = userEvent.setup();
    const branch = await screen.findByRole('combobox', { name: texts.branch }, { timeout: 20_000 });
    await screen.findByRole('option', { name: 'ANNA · Anna Nagar' });
    await user.selectOptions(branch, 'ANNA');
    await waitFor(() =>
      expect(server.sent('GET', API_PATHS.dashboard).at(-1)!.params).toEqual({ branch: 'ANNA' }),
    );
    await waitFor(() =>
      expect(figureCard(/^Overdue installments/)).toHaveAttribute(
        'href',
        `${PATHS.overdueReport}?branch=ANNA`,
      ),
    );
    expect(figureCard(/^Today Installments collected/)).toHaveAttribute(
      'href',
      `${PATHS.collectionsReport}?from=${today}&to=${today}&branch=ANNA`,
    );
  });

  it('shows a manager their own branch, with no branch to choose', async () => {
    // With weight schemes and tiers, their cards too.
    const withGoldAndTiers: DashboardData = {
      ...figures,
      schemes: {
        ...figures.schemes,
        goldHeld: [
          { plan: 'GOLD', name: 'Swarna', mg: 12_345 },
          { plan: 'GOLD6', name: 'Swarna 6', mg: 500 },
        ],
      },
      tiers: [
        { code: 'SILVER', name: 'Silver', customers: 1200 },
        { code: 'GOLD', name: 'Gold', customers: 34 },
      ],
    };
    const server = dashboardServer('manager', {
      status: 200,
      body: { success: true, data: withGoldAndTiers },
    }).on('GET', API_PATHS.goldRateToday, {
      status: 200,
      body: {
        success: true,
        data: {
          date: today,
          rate22k: 7250.5,
          rate24k: 7910,
          enteredBy: 'Meena',
          updatedAt: `${today}T04:00:00.000Z`,
        },
      },
    });
    renderApp(PATHS.home);
    expect(
      await screen.findByText('Branch: MAIN · Zaveri Bazaar', {}, { timeout: 20_000 }),
    ).toBeVisible();
    await screen.findByRole('link', { name: /^Overdue installments/ });
    expect(screen.queryByRole('combobox', { name: texts.branch })).toBeNull();
    expect(server.sent('GET', API_PATHS.branches)).toEqual([]);
    const goldRate = await screen.findByRole('link', { name: /^Today Gold rate/ });
    expect(goldRate).toHaveTextContent(`₹7,250.50${GOLD_RATE_TEXTS.card24k('₹7,910')}`);
    expect(goldRate).not.toHaveTextContent(GOLD_RATE_TEXTS.notEntered);
    expect(server.sent('GET', API_PATHS.dashboard).map((request) => request.params)).toEqual([{}]);
    expect(screen.getByText(texts.goldHeld).closest('.MuiCard-root')).toHaveTextContent(
      `${texts.goldHeld}12.845 gSwarna 12.345 gSwarna 6 0.500 g`,
    );
    expect(screen.getByText(texts.tiers).closest('.MuiCard-root')).toHaveTextContent(
      `${texts.tiers}1,234Silver 1,200Gold 34`,
    );
  });

  it('sends a cashier to the counter home, and asks for no figures', async () => {
    const server = dashboardServer('cashier').on('GET', API_PATHS.myDay, {
      status: 200,
      body: {
        success: true,
        data: { date: today, installments: [], totals: { installments: 0, amount: 0 } },
      },
    });
    renderApp(PATHS.home);
    await screen.findByRole('heading', { name: PAGE_TITLES.counter }, { timeout: 20_000 });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    await within(nav).findByRole('link', { name: 'Loyalty Points' });
    expect(screen.queryByRole('figure')).toBeNull();
    expect(screen.queryByRole('link', { name: /Installments collected/ })).toBeNull();
    expect(server.sent('GET', API_PATHS.dashboard)).toEqual([]);
  });

  it('lists the online payments to refund, and notes one refunded with its refund id', async () => {
    const refund: OnlineRefund = {
      paymentId: 'pay_29QQoUBi66xm2f',
      orderId: 'order_9A33XWu170gUtm',
      schemeid: 42,
      custname: 'Lata Pillai',
      mobileno: '9822200014',
      amount: 2500,
      expected: 2500,
      forMonth: '2026-03',
      paidAt: '2026-03-10T06:30:00.000Z',
      reason: 'monthPaid',
      branch: 'MAIN',
    };
    // A payment of ₹1.00 for a ₹5,000 installment: not recorded, waiting for staff.
    const mismatch: OnlineRefund = {
      ...refund,
      paymentId: 'pay_MISMATCH00001',
      orderId: 'order_MISMATCH0001',
      amount: 1,
      expected: 5000,
      reason: 'amountMismatch',
    };
    let waiting = [refund, mismatch];
    const server = dashboardServer('owner')
      .on('GET', API_PATHS.onlineRefunds, () => ({
        status: 200,
        body: { success: true, data: waiting },
      }))
      .on('POST', API_PATHS.markOnlineRefund, () => {
        waiting = [];
        return { status: 200, body: { success: true, message: 'Refund of payment noted.' } };
      });
    renderApp(PATHS.home);
    const table = await screen.findByRole(
      'table',
      { name: ONLINE_REFUND_TEXTS.table },
      { timeout: 20_000 },
    );
    expect(table).toHaveTextContent('Lata Pillai · 9822200014');
    expect(table).toHaveTextContent('03-2026');
    expect(table).toHaveTextContent('₹2,500');
    expect(table).toHaveTextContent(ONLINE_REFUND_TEXTS.reasons.monthPaid);
    expect(table).toHaveTextContent(
      'Received ₹1.00, expected ₹5,000 — not recorded as an installment; refund or settle it.',
    );

    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', { name: ONLINE_REFUND_TEXTS.markRefundedOf(refund.paymentId) }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: ONLINE_REFUND_TEXTS.confirmTitle(refund.paymentId),
    });
    // Without the refund id nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: ONLINE_REFUND_TEXTS.confirm }));
    expect(
      await within(dialog).findByText("Enter the gateway's refund id (rfnd_…)."),
    ).toBeVisible();
    expect(server.sent('POST', API_PATHS.markOnlineRefund)).toEqual([]);
    await user.type(
      within(dialog).getByLabelText(ONLINE_REFUND_TEXTS.reference),
      'rfnd_FP8QHiV938haTz',
    );
    await user.click(within(dialog).getByRole('button', { name: ONLINE_REFUND_TEXTS.confirm }));
    expect(await screen.findByText('Refund of payment noted.')).toBeVisible();
    expect(server.sent('POST', API_PATHS.markOnlineRefund)[0]?.body).toEqual({
      paymentId: refund.paymentId,
      reference: 'rfnd_FP8QHiV938haTz',
    });
    // Nothing left to refund: the list goes.
    await waitFor(() =>
      expect(screen.queryByRole('table', { name: ONLINE_REFUND_TEXTS.table })).toBeNull(),
    );
  });

  it('says so when the figures cannot be loaded', async () => {
    dashboardServer('owner', { status: 500, body: { success: false, message: 'boom' } });
    renderApp(PATHS.home);
    expect(await screen.findByText(texts.loadFailed, {}, { timeout: 20_000 })).toBeVisible();
    expect(screen.queryByRole('figure')).toBeNull();
  });
});
