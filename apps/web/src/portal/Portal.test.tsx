import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MEMBER_API_PATHS,
  MEMBER_MESSAGES,
  MEMBER_STORAGE_KEYS,
  PORTAL_TEXTS,
  SIGN_IN_API_PATHS,
} from '@kanak/contract';
import { forgetShopBranding } from './branding';
import { daysAfter, shopToday } from './format';
import { Portal } from './Portal';
import { testBranding } from '../test/fake-server';
import { session } from './session';

/**
 * The customers' portal in jsdom: its real screens and client over a fake fetch. Each test
 * answers the calls it expects; any other call fails the screen as a lost connection would.
 */
type Reply = { status: number; body: unknown };
type Handler = (body: unknown) => Reply;

/** The shop the staff app's tests show: one set of test branding for both. */
const shop = testBranding;

let handlers: Map<string, Handler>;
let seen: { method: string; url: string; auth: string | null; body: unknown }[];

function answer(method: string, path: string, handler: Handler) {
  handlers.set(`${method} /api${path}`, handler);
}

beforeEach(() => {
  handlers = new Map();
  seen = [];
  session.reload();
  forgetShopBranding();
  answer('GET', SIGN_IN_API_PATHS.branding, () => ({
    status: 200,
    body: { success: true, data: shop },
  }));
  // jsdom does not scroll; a new screen starting at the top is the browser's business.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    const headers = new Headers(init?.headers);
    seen.push({ method, url, auth: headers.get('authorization'), body });
    const handler = handlers.get(`${method} ${url}`);
    if (!handler) throw new TypeError('Failed to fetch');
    const reply = handler(body);
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
});

// The other files' screens run in this same window: it leaves at the address it found.
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

function open(path: string) {
  window.history.replaceState(null, '', path);
  return render(<Portal />);
}

function signedIn(token = 'member-token-1') {
  window.localStorage.setItem(MEMBER_STORAGE_KEYS.token, token);
  session.reload();
}

const today = shopToday();

const me = {
  custname: 'Asha Verma',
  mobile: '9876543210',
  points: {
    balance: 1250,
    value: 125,
    expiringIn30Days: 300,
    lots: [
      { points: 300, expiresOn: daysAfter(today, 10) },
      { points: 950, expiresOn: daysAfter(today, 200) },
    ],
  },
  tier: { tier: 'GOLD', tierName: 'Gold', spend12m: 250000, nextTier: null, toNextTier: null },
  schemes: [
    {
      schemeid: 41,
      startdt: '2026-01-05',
      matdt: '2026-11-05',
      amount: 2500,
      paid: 2,
      installments: 11,
      nextDue: '2026-03-05',
      status: 'a',
      nextInstallment: {
        month: '2026-03',
        installmentNo: 3,
        dueOn: '2026-03-05',
        overdue: false,
        now: true,
        online: true,
      },
      plan: { code: 'GOLD11', name: 'Gold weight plan', kind: 'weight' },
      grams: 12.345,
      maturity: { paid: 27_500, bonus: 2500 },
    },
    {
      schemeid: 7,
      startdt: '2025-01-05',
      matdt: '2025-11-05',
      amount: 1000,
      paid: 11,
      installments: 11,
      nextDue: null,
      status: 'm',
      nextInstallment: null,
    },
  ],
  consents: { transactional: true, marketing: false },
};

describe('signing in with a one-time code', () => {
  it('checks the number, shows the server’s words for a refused code, then opens the account', async () => {
    const user = userEvent.setup();
    answer('POST', MEMBER_API_PATHS.memberOtp, () => ({
      status: 200,
      body: { success: true, data: { expiresInSeconds: 300 } },
    }));
    const verifications: Reply[] = [
      { status: 401, body: { success: false, message: MEMBER_MESSAGES.wrongCode } },
      { status: 429, body: { success: false, message: MEMBER_MESSAGES.tooManyChecks } },
      { status: 200, body: { success: true, data: { token: 'fresh', expiresInSeconds: 1 } } },
    ];
    answer('POST', MEMBER_API_PATHS.memberVerify, () => verifications.shift()!);
    answer('GET', MEMBER_API_PATHS.memberMe, () => ({
      status: 200,
      body: { success: true, data: me },
    }));
    open('/my');

    const mobile = await screen.findByLabelText(PORTAL_TEXTS.signIn.mobile);
    await user.type(mobile, '98765');
    await user.click(screen.getByRole('button', { name: PORTAL_TEXTS.signIn.sendCode }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PORTAL_TEXTS.signIn.mobileInvalid);
    expect(mobile).toHaveAttribute('aria-invalid', 'true');
    expect(seen.filter((call) => call.url.includes('/member/'))).toEqual([]);

    await user.type(mobile, '43210');
    await user.keyboard('{Enter}');
    const code = await screen.findByLabelText(PORTAL_TEXTS.signIn.code);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: { mobile: '9876543210' } });
    // A new code only after a minute: the server would refuse one sooner.
    expect(screen.getByRole('button', { name: PORTAL_TEXTS.signIn.resend })).toBeDisabled();
    expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeInTheDocument();

    await user.type(code, '123456{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(MEMBER_MESSAGES.wrongCode);
    await user.clear(code);
    await user.type(code, '654321{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(MEMBER_MESSAGES.tooManyChecks);
    await user.clear(code);
    await user.type(code, '111111{Enter}');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Hello, Asha Verma' }),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem(MEMBER_STORAGE_KEYS.token)).toBe('fresh');
    expect(seen.at(-1)).toMatchObject({ auth: 'Bearer fresh' });
  });
});

describe('the home screen', () => {
  it('shows the points, what expires soon, the tier and the schemes, in en-IN', async () => {
    signedIn();
    answer('GET', MEMBER_API_PATHS.memberMe, () => ({
      status: 200,
      body: { success: true, data: me },
    }));
    open('/my');

    await screen.findByRole('heading', { level: 1, name: 'Hello, Asha Verma' });
    const points = screen.getByRole('region', { name: PORTAL_TEXTS.home.points });
    expect(points).toHaveTextContent('1,250 points');
    expect(points).toHaveTextContent('Worth ₹125');
    expect(points).toHaveTextContent('300 points expire in the next 30 days');
    // Only the lot that expires within 30 days is listed.
    const soon = daysAfter(today, 10).split('-').reverse().join('/');
    expect(
      within(points)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`300 points on ${soon}`]);
    expect(screen.getByText('Tier: Gold')).toBeInTheDocument();

    const schemes = screen.getByRole('region', { name: PORTAL_TEXTS.home.schemes });
    const [weight, done] = within(schemes).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(weight).toHaveTextContent('Scheme 41 · Active');
    expect(weight).toHaveTextContent('Gold weight plan');
    expect(weight).toHaveTextContent('₹2,500 a month');
    expect(weight).toHaveTextContent('2 of 11 installments paid');
    expect(weight).toHaveTextContent('12.345 g of gold saved');
    expect(weight).toHaveTextContent('Installment 3 of 11, for March 2026, is due on 05/03/2026.');
    expect(within(weight).getByRole('link', { name: PORTAL_TEXTS.home.pay(41) })).toHaveAttribute(
      'href',
      '/my/schemes/41/pay',
    );
    expect(
      within(weight).getByRole('link', { name: PORTAL_TEXTS.home.passbook(41) }),
    ).toHaveAttribute('href', '/my/schemes/41');
    // A completed scheme: nothing to pay.
    expect(done).toHaveTextContent(PORTAL_TEXTS.home.allPaid);
    expect(within(done).queryByRole('link', { name: /^Pay/ })).toBeNull();
    // The shop's branding in the header.
    expect(await screen.findByText('Swarnamahal Jewellers')).toBeInTheDocument();
  });

  it('drops the token and shows the sign-in screen on a 401', async () => {
    signedIn('ended-elsewhere');
    answer('GET', MEMBER_API_PATHS.memberMe, () => ({
      status: 401,
      body: { success: false, message: MEMBER_MESSAGES.sessionExpired },
    }));
    open('/my/consents');

    expect(await screen.findByRole('status')).toHaveTextContent(MEMBER_MESSAGES.sessionExpired);
    expect(screen.getByLabelText(PORTAL_TEXTS.signIn.mobile)).toBeInTheDocument();
    expect(window.localStorage.getItem(MEMBER_STORAGE_KEYS.token)).toBeNull();
  });
});

describe('paying an installment', () => {
  it('shows the server’s words when online payment is not set up', async () => {
    const user = userEvent.setup();
    signedIn();
    answer('GET', '/member/schemes/41', () => ({
      status: 200,
      body: { success: true, data: { scheme: me.schemes[0], rows: [] } },
    }));
    answer('POST', '/member/schemes/41/pay', () => ({
      status: 409,
      body: { success: false, message: MEMBER_MESSAGES.onlinePaymentNotSetUp },
    }));
    open('/my/schemes/41/pay');

    await user.click(await screen.findByRole('button', { name: 'Pay ₹2,500' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      MEMBER_MESSAGES.onlinePaymentNotSetUp,
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay ₹2,500' })).toBeEnabled());
    expect(window.localStorage.getItem(MEMBER_STORAGE_KEYS.token)).toBe('member-token-1');
  });
  it('says the shop is checking a payment the server did not record as the installment', async () => {
    const user = userEvent.setup();
    signedIn();
    const paid = {
      razorpay_order_id: 'order_9A33XWu170gUtm',
      razorpay_payment_id: 'pay_29QQoUBi66xm2f',
      razorpay_signature: 'ab'.repeat(32),
    };
    // The gateway's checkout, as its script defines it: paid at once.
    window.Razorpay = class {
      constructor(private readonly options: { handler: (response: typeof paid) => void }) {}
      open() {
        this.options.handler(paid);
      }
    } as unknown as typeof window.Razorpay;
    answer('GET', '/member/schemes/41', () => ({
      status: 200,
      body: { success: true, data: { scheme: me.schemes[0], rows: [] } },
    }));
    answer('POST', '/member/schemes/41/pay', () => ({
      status: 200,
      body: {
        success: true,
        data: {
          orderId: paid.razorpay_order_id,
          amount: 250_000,
          currency: 'INR',
          keyId: 'rzp_test_kanak',
          checkoutUrl: 'https://checkout.example/v1/checkout.js',
        },
      },
    }));
    answer('POST', MEMBER_API_PATHS.memberPaymentVerify, () => ({
      status: 200,
      body: {
        success: true,
        message: MEMBER_MESSAGES.paymentRecorded,
        data: { receipt: null, overpayment: false, checking: true },
      },
    }));
    open('/my/schemes/41/pay');
    try {
      await user.click(await screen.findByRole('button', { name: 'Pay ₹2,500' }));
      expect(await screen.findByText(PORTAL_TEXTS.pay.beingChecked)).toBeVisible();
      expect(screen.queryByText(PORTAL_TEXTS.pay.paidHeading)).toBeNull();
    } finally {
      delete window.Razorpay;
    }
  });
});

describe('a passbook receipt', () => {
  it('shows a weight installment’s rate and gold, and prints', async () => {
    const user = userEvent.setup();
    signedIn();
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    answer('GET', '/member/schemes/41', () => ({
      status: 200,
      body: {
        success: true,
        data: {
          scheme: me.schemes[0],
          rows: [
            {
              no: 1,
              date: '2026-01-05',
              amount: 3000,
              mode: 'upi',
              receiptNo: 'MAIN-000002',
              rate: 6543.21,
              grams: 0.458,
            },
          ],
        },
      },
    }));
    open('/my/schemes/41');

    await user.click(await screen.findByRole('link', { name: 'Receipt MAIN-000002' }));
    const receipt = await screen.findByRole('region', { name: PORTAL_TEXTS.receipt.heading });
    expect(window.location.pathname).toBe('/my/schemes/41/receipts/MAIN-000002');
    for (const text of [
      'Swarnamahal Jewellers',
      'MAIN-000002',
      '05/01/2026',
      '1 of 11',
      '₹3,000',
      'UPI',
      '₹6,543.21 a gram',
      '0.458 g',
    ])
      expect(receipt).toHaveTextContent(text);
    await user.click(screen.getByRole('button', { name: PORTAL_TEXTS.receipt.print }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});

describe('what a scheme asks of the customer, as the server’s scheme data says', () => {
  const running = me.schemes[0]!;
  /** A standard scheme of ₹5,000 started on 05/01/2026, in the state a test gives it. */
  const standard = (schemeid: number, nextInstallment: unknown, paid = 2) => ({
    schemeid,
    startdt: '2026-01-05',
    matdt: '2027-01-04',
    amount: 5000,
    paid,
    installments: 11,
    nextDue: '2026-03-05',
    status: 'a',
    nextInstallment,
    maturity: { paid: 55_000, bonus: 5000, total: 60_000 },
  });
  const nextOf = (fields: object) => ({
    month: '2026-03',
    installmentNo: 3,
    dueOn: '2026-03-05',
    overdue: false,
    now: true,
    online: true,
    ...fields,
  });

  it('offers Pay only for an installment Pay takes now, and says when nothing is due', async () => {
    signedIn();
    const schemes = [
      standard(51, nextOf({ now: false, online: false, month: '2026-04', dueOn: '2026-04-05' })),
      standard(52, nextOf({ overdue: true })),
      standard(53, nextOf({ online: false })),
      { ...standard(54, null, 11), nextDue: null },
      running,
    ];
    answer('GET', MEMBER_API_PATHS.memberMe, () => ({
      status: 200,
      body: { success: true, data: { ...me, schemes } },
    }));
    open('/my');
    const list = await screen.findByRole('region', { name: PORTAL_TEXTS.home.schemes });
    const [ahead, overdue, atShop, allPaid, weight] = within(list).getAllByRole(
      'listitem',
    ) as HTMLElement[];
    const payLink = (item: HTMLElement) => within(item).queryByRole('link', { name: /^Pay/ });

    // March and April paid: nothing to pay, and the day the next one falls due.
    expect(ahead).toHaveTextContent(
      'Nothing to pay now. Your next installment is due on 05/04/2026.',
    );
    expect(payLink(ahead!)).toBeNull();
    expect(overdue).toHaveTextContent(
      'Installment 3 of 11, for March 2026, was due on 05/03/2026.',
    );
    expect(payLink(overdue!)).toHaveAttribute('href', '/my/schemes/52/pay');
    // The month may be paid, but the shop takes no payments online.
    expect(atShop).toHaveTextContent(PORTAL_TEXTS.home.payAtShop);
    expect(payLink(atShop!)).toBeNull();
    expect(allPaid).toHaveTextContent(PORTAL_TEXTS.home.allPaid);
    expect(payLink(allPaid!)).toBeNull();

    // What the scheme pays at maturity, in rupees; a weight scheme's total is its gold.
    const figures = within(ahead!).getByRole('region', { name: 'At maturity · Scheme 51' });
    expect(figures).toHaveTextContent('On 04/01/2027, with every installment paid on time:');
    expect(figures).toHaveTextContent('You will have paid₹55,000');
    expect(figures).toHaveTextContent("The shop's bonus₹5,000");
    expect(figures).toHaveTextContent('You will get₹60,000');
    const gold = within(weight!).getByRole('region', { name: 'At maturity · Scheme 41' });
    expect(gold).toHaveTextContent('You will have paid₹27,500');
    expect(gold).toHaveTextContent("The shop's bonus₹2,500");
    expect(gold).not.toHaveTextContent(PORTAL_TEXTS.home.maturityTotal);
    expect(gold).toHaveTextContent(PORTAL_TEXTS.home.maturityGold);
  });

  it('shows no Pay button on the pay page when nothing is due, and asks the server nothing', async () => {
    signedIn();
    const ahead = standard(
      51,
      nextOf({ now: false, online: false, month: '2026-04', dueOn: '2026-04-05' }),
    );
    answer('GET', '/member/schemes/51', () => ({
      status: 200,
      body: { success: true, data: { scheme: ahead, rows: [] } },
    }));
    open('/my/schemes/51/pay');
    expect(
      await screen.findByText('Nothing to pay now. Your next installment is due on 05/04/2026.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
    expect(seen.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('names the month on the pay page, and the month and payment id on the receipt', async () => {
    const user = userEvent.setup();
    signedIn();
    const paid = {
      razorpay_order_id: 'order_9A33XWu170gUtm',
      razorpay_payment_id: 'pay_29QQoUBi66xm2f',
      razorpay_signature: 'ab'.repeat(32),
    };
    window.Razorpay = class {
      constructor(private readonly options: { handler: (response: typeof paid) => void }) {}
      open() {
        this.options.handler(paid);
      }
    } as unknown as typeof window.Razorpay;
    answer('GET', '/member/schemes/52', () => ({
      status: 200,
      body: { success: true, data: { scheme: standard(52, nextOf({})), rows: [] } },
    }));
    answer('POST', '/member/schemes/52/pay', () => ({
      status: 200,
      body: {
        success: true,
        data: {
          orderId: paid.razorpay_order_id,
          amount: 500_000,
          currency: 'INR',
          keyId: 'rzp_test_kanak',
          checkoutUrl: 'https://checkout.example/v1/checkout.js',
        },
      },
    }));
    answer('POST', MEMBER_API_PATHS.memberPaymentVerify, () => ({
      status: 200,
      body: {
        success: true,
        message: MEMBER_MESSAGES.paymentRecorded,
        data: {
          receipt: {
            receiptNo: 'MAIN-000031',
            branch: null,
            schemeid: 52,
            custname: 'Asha Verma',
            mobileno: '9876543210',
            date: '2026-03-02',
            amount: 5000,
            mode: 'online',
            reference: paid.razorpay_payment_id,
            installmentNo: 3,
            installments: 11,
            forMonth: '2026-03',
            paidSoFar: 15_000,
          },
          overpayment: false,
          checking: false,
        },
      },
    }));
    open('/my/schemes/52/pay');
    try {
      expect(await screen.findByText('Installment 3 of 11, for March 2026')).toBeVisible();
      await user.click(screen.getByRole('button', { name: 'Pay ₹5,000' }));
      const receipt = await screen.findByRole('region', { name: PORTAL_TEXTS.receipt.heading });
      expect(receipt).toHaveTextContent('For the monthMarch 2026');
      expect(receipt).toHaveTextContent('Payment idpay_29QQoUBi66xm2f');
      expect(receipt).toHaveTextContent('3 of 11');
    } finally {
      delete window.Razorpay;
    }
  });
});
