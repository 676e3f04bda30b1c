import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  ACCOUNTING_MESSAGES,
  DEFAULT_ACCOUNTING_SETTINGS,
  RAZORPAY_SETTLEMENTS_HEADER,
} from '@kanak/contract';
import {
  appOnDatabase,
  authed,
  createTestContext,
  movableClock,
  servicesOn,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fake-razorpay.js';
import { startFakeTally, type FakeTally } from '../../../test/fake-tally.js';

/**
 * Online installments and Razorpay's payouts in the books. Three customers pay November's
 * installment online (through Razorpay: the fake's payment ids are the installments'
 * references); Razorpay settles two of them on 05/11 less its 2% fee and 18% GST on the fee,
 * the third is still in transit. The file, read as Tally reads it, posts the online receipts
 * to Razorpay Clearing and the payout as one balanced Receipt (Bank, the fee, the GST against
 * the clearing ledger's gross), so the clearing ledger nets to what Razorpay has yet to pay.
 * Settlements are read from the fake Razorpay's Settlements API (basic auth, count/skip pages,
 * 429 when flooded) and recorded once each, with an audit row.
 */

const TODAY = '2026-12-20';
const clock = movableClock(TODAY);
const { enteredOn } = clock;

let ctx: TestContext;
let razorpay: FakeRazorpay;
let tally: FakeTally;
let owner: string;
let gatewayEnv: NodeJS.ProcessEnv;

const post = (url: string, payload: unknown, app = ctx.app) =>
  app.inject(
    authed(owner, {
      method: 'POST',
      url: `/api${url}`,
      payload: payload as InjectOptions['payload'],
    }),
  );
async function ok(response: Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  isArray: (name) => name === 'TALLYMESSAGE' || name === 'ALLLEDGERENTRIES.LIST',
});
interface Line {
  LEDGERNAME: string;
  ISDEEMEDPOSITIVE: 'Yes' | 'No';
  AMOUNT: string;
}
interface Voucher {
  REMOTEID: string;
  VCHTYPE: string;
  DATE: string;
  VOUCHERNUMBER: string;
  NARRATION: string;
  'ALLLEDGERENTRIES.LIST': Line[];
}
function vouchersOf(xml: string): Voucher[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const data = parser.parse(xml).ENVELOPE.BODY.IMPORTDATA.REQUESTDATA;
  return (typeof data === 'object' ? (data.TALLYMESSAGE ?? []) : []).map(
    (message: { VOUCHER: Voucher }) => message.VOUCHER,
  );
}
const paise = (amount: string) => {
  expect(amount).toMatch(/^-?\d+\.\d{2}$/);
  return Math.round(Number(amount) * 100);
};
/** Debits (Yes, negative) equal credits (No, positive) to the paisa. */
function expectBalanced(voucher: Voucher) {
  let sum = 0;
  for (const line of voucher['ALLLEDGERENTRIES.LIST']) {
    const amount = paise(line.AMOUNT);
    expect(line.ISDEEMEDPOSITIVE === 'Yes', `${voucher.REMOTEID} ${line.LEDGERNAME}`).toBe(
      amount < 0,
    );
    sum += amount;
  }
  expect(sum, voucher.REMOTEID).toBe(0);
}
/** What the vouchers leave on a ledger: its debits less its credits, in paise. */
const netDebit = (vouchers: Voucher[], ledger: string) =>
  -vouchers
    .flatMap((voucher) => voucher['ALLLEDGERENTRIES.LIST'])
    .filter((line) => line.LEDGERNAME === ledger)
    .reduce((sum, line) => sum + paise(line.AMOUNT), 0);
const settlementVouchers = (vouchers: Voucher[]) =>
  vouchers.filter((voucher) => voucher.REMOTEID.startsWith('kanak-razorpay-'));

/** Razorpay's payment ids of the online installments, with their amounts in paise. */
const online: { id: string; amount: number; schemeid: number }[] = [];

async function schemeWithOnlinePayment(mobile: string, amount: number, paidOn: string) {
  const [person] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
    [mobile, `Customer ${mobile.slice(-2)}`],
  );
  const made = await enteredOn('2026-10-01', () =>
    ok(
      post('/scheme/generate', {
        custid: person!.id,
        mobileno: mobile,
        custname: `Customer ${mobile.slice(-2)}`,
        startdt: '2026-10-01',
        amount,
      }),
    ),
  );
  const schemeid = made.json().data.schemeid as number;
  await enteredOn('2026-10-01', () =>
    ok(post('/scheme/activate', { schemeid, date: '2026-10-01', mode: 'cash' })),
  );
  // November's installment paid through Razorpay's checkout on the member portal, recorded as
  // the portal's verify does.
  const order = `order_T${mobile.slice(-4)}`;
  razorpay.orders.set(order, {
    id: order,
    amount: amount * 100,
    currency: 'INR',
    receipt: `scheme-${schemeid}`,
    notes: {},
    payments: [],
  });
  const paymentId = razorpay.pay(order).razorpay_payment_id;
  await enteredOn(paidOn, async () => {
    const services = servicesOn(ctx.database, gatewayEnv, clock.now);
    await services.db.transaction((tx) =>
      services.schemes.recordOnline(tx, { schemeid, period: '2026-11', reference: paymentId }),
    );
  });
  online.push({ id: paymentId, amount: amount * 100, schemeid });
}

const exportRange = (range: object, app = ctx.app) =>
  ok(post('/accounting/tally-export', range, app));
const november = { from: '2026-11-01', to: '2026-11-30' };
const at = (isoDateTime: string) => new Date(`${isoDateTime}+05:30`);

beforeAll(async () => {
  razorpay = await startFakeRazorpay();
  tally = await startFakeTally(Object.values(DEFAULT_ACCOUNTING_SETTINGS).filter(Boolean));
  gatewayEnv = {
    RAZORPAY_URL: razorpay.url,
    RAZORPAY_KEY_ID: razorpay.keyId,
    RAZORPAY_KEY_SECRET: razorpay.keySecret,
    RAZORPAY_WEBHOOK_SECRET: razorpay.webhookSecret,
  };
  ctx = await createTestContext({ ...gatewayEnv, TALLY_URL: tally.url }, clock.now);
  owner = (await staffSession(ctx, 'owner', 'owner')).token;
  await schemeWithOnlinePayment('9811000001', 1000, '2026-11-02');
  await schemeWithOnlinePayment('9811000002', 2500, '2026-11-03');
  await schemeWithOnlinePayment('9811000003', 1500, '2026-11-20');
  // Razorpay pays out the first two on 05/11; the third's payout is still on its way at the
  // month's end (created, not processed).
  razorpay.settle({
    payments: online.slice(0, 2).map(({ id, amount }) => ({ id, amount })),
    at: at('2026-11-05T10:15:00'),
  });
  razorpay.settle({
    payments: online.slice(2).map(({ id, amount }) => ({ id, amount })),
    at: at('2026-11-30T23:00:00'),
    status: 'created',
  });
});

afterAll(async () => {
  await ctx?.close();
  await razorpay?.close();
  await tally?.close();
});

describe('online installments and Razorpay payouts', () => {
  it('posts online receipts to the clearing ledger and each payout as one balanced Receipt', async () => {
    const response = await exportRange(november);
    expect(response.headers[RAZORPAY_SETTLEMENTS_HEADER]).toBe('1');
    const vouchers = vouchersOf(response.body);
    vouchers.forEach(expectBalanced);

    const receipts = vouchers.filter((voucher) => voucher.REMOTEID.startsWith('kanak-installment'));
    expect(receipts).toHaveLength(3);
    for (const receipt of receipts)
      expect(receipt['ALLLEDGERENTRIES.LIST'][0]!.LEDGERNAME).toBe('Razorpay Clearing');

    const [payout, ...more] = settlementVouchers(vouchers);
    expect(more).toEqual([]);
    const settled = razorpay.settlements[0]!;
    expect(payout).toMatchObject({
      REMOTEID: `kanak-razorpay-${settled.id}`,
      VCHTYPE: 'Receipt',
      DATE: '20261105',
      VOUCHERNUMBER: settled.id,
    });
    // ₹3,500 collected; Razorpay kept 2% (₹70) and 18% GST on it (₹12.60).
    expect(payout!['ALLLEDGERENTRIES.LIST']).toEqual([
      { LEDGERNAME: 'Bank', ISDEEMEDPOSITIVE: 'Yes', AMOUNT: '-3417.40' },
      { LEDGERNAME: 'Payment Gateway Charges', ISDEEMEDPOSITIVE: 'Yes', AMOUNT: '-70.00' },
      { LEDGERNAME: 'Input GST', ISDEEMEDPOSITIVE: 'Yes', AMOUNT: '-12.60' },
      { LEDGERNAME: 'Razorpay Clearing', ISDEEMEDPOSITIVE: 'No', AMOUNT: '3500.00' },
    ]);
    expect(payout!.NARRATION).toContain(`UTR ${settled.utr}`);
    expect(payout!.NARRATION).toContain('2 payments of ₹3,500.00');

    // The clearing ledger nets to what Razorpay has not paid out: the payments in no processed
    // settlement.
    const paidOut = new Set(
      razorpay.settlements
        .filter((settlement) => settlement.status === 'processed')
        .flatMap((settlement) => settlement.items.map((item) => item.entity_id)),
    );
    const unsettled = online
      .filter((payment) => !paidOut.has(payment.id))
      .reduce((sum, payment) => sum + payment.amount, 0);
    expect(netDebit(vouchers, 'Razorpay Clearing')).toBe(unsettled);
    expect(unsettled).toBe(150_000);
    // The bank got the settlement's amount, to the paisa.
    expect(netDebit(vouchers, 'Bank')).toBe(settled.amount);
  });

  it('records each settlement once, with an audit row, however often the days are exported', async () => {
    const reconCalls = () =>
      razorpay.calls.filter((call) => call.includes('/v1/settlements/recon/combined')).length;
    const before = reconCalls();
    await exportRange(november);
    await exportRange({ from: '2026-11-05', to: '2026-11-05' });
    // Recorded already: its day's recon is not asked for again.
    expect(reconCalls()).toBe(before);
    const rows = await ctx.sql(
      `SELECT id, amount_paise, fees_paise, tax_paise, settled_on::text, payments, payments_paise,
              refunds_paise FROM razorpay_settlements`,
    );
    expect(rows).toEqual([
      {
        id: razorpay.settlements[0]!.id,
        amount_paise: 341_740,
        fees_paise: 8260,
        tax_paise: 1260,
        settled_on: '2026-11-05',
        payments: 2,
        payments_paise: 350_000,
        refunds_paise: 0,
      },
    ]);
    const audits = await ctx.sql<{ detail: Record<string, unknown> }>(
      `SELECT detail FROM audit_log WHERE action = 'accounting.razorpaySettlements'`,
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toMatchObject({
      after: { settlements: [razorpay.settlements[0]!.id], settled: 3417.4, fee: 70, gst: 12.6 },
    });
    // The calls carried the key's basic auth and the days as Unix seconds.
    const listed = razorpay.calls.find((call) => call.startsWith('GET /v1/settlements?'))!;
    const params = new URL(listed.slice(4), 'http://fake').searchParams;
    expect(Number(params.get('from'))).toBe(at('2026-11-01T00:00:00').getTime() / 1000);
    expect(Number(params.get('to'))).toBe(at('2026-11-30T23:59:59').getTime() / 1000);
    expect(params.get('count')).toBe('100');
  });

  it("leaves Razorpay's payouts out of one branch's file, and says so", async () => {
    const response = await exportRange({ ...november, branch: 'MAIN' });
    expect(response.headers[RAZORPAY_SETTLEMENTS_HEADER]).toBe('branch');
    expect(settlementVouchers(vouchersOf(response.body))).toEqual([]);
  });

  it('sends the payout to Tally with the receipts, and Tally takes them all', async () => {
    const pushed = (await ok(post('/accounting/tally-push', november))).json().data;
    expect(pushed).toMatchObject({ vouchers: 4, errors: 0 });
    const inTally = [...tally.vouchers.values()];
    expect(
      inTally.filter((voucher) => voucher.remoteId.startsWith('kanak-razorpay-')),
    ).toHaveLength(1);
    const clearing = inTally
      .flatMap((voucher) => voucher.lines)
      .filter((line) => line.ledger === 'Razorpay Clearing')
      .reduce((sum, line) => sum - paise(line.amount), 0);
    expect(clearing).toBe(150_000);
  });

  it('reads a month of many payouts page by page, none lost or repeated', async () => {
    // 150 payouts in October over three days: two pages of 100.
    for (let index = 0; index < 150; index++)
      razorpay.settle({
        payments: [{ id: `pay_Oct${String(index).padStart(4, '0')}`, amount: 10_000 + index }],
        at: at(`2026-10-${10 + (index % 3)}T11:${String(index % 60).padStart(2, '0')}:00`),
      });
    const response = await exportRange({ from: '2026-10-01', to: '2026-10-31' });
    expect(response.headers[RAZORPAY_SETTLEMENTS_HEADER]).toBe('150');
    const payouts = settlementVouchers(vouchersOf(response.body));
    expect(new Set(payouts.map((voucher) => voucher.VOUCHERNUMBER)).size).toBe(150);
    payouts.forEach(expectBalanced);
    const pages = razorpay.calls
      .filter(
        (call) =>
          call.startsWith('GET /v1/settlements?') &&
          call.includes(`from=${at('2026-10-01T00:00:00').getTime() / 1000}&`),
      )
      .map((call) => new URL(call.slice(4), 'http://fake').searchParams.get('skip'));
    expect(pages.slice(-2)).toEqual(['0', '100']);
  });

  it("waits and tries again when Razorpay's rate limiter answers 429, then has every payout", async () => {
    for (const day of ['01', '02', '03'])
      razorpay.settle({
        payments: [{ id: `pay_Dec${day}`, amount: 50_000 }],
        at: at(`2026-12-${day}T09:00:00`),
      });
    razorpay.rateLimit = { requests: 1, windowMs: 400 };
    const limitedBefore = razorpay.limited.length;
    try {
      const response = await exportRange({ from: '2026-12-01', to: '2026-12-10' });
      expect(response.headers[RAZORPAY_SETTLEMENTS_HEADER]).toBe('3');
      expect(razorpay.limited.length).toBeGreaterThan(limitedBefore);
    } finally {
      razorpay.rateLimit = undefined;
    }
  });
});

describe("when Razorpay's settlements cannot be read", () => {
  const december = { from: '2026-12-11', to: '2026-12-20' };
  const recorded = () => ctx.sql(`SELECT id FROM razorpay_settlements ORDER BY id`);

  it('a rate limiter that never lets up: given up after a few tries, in words, nothing recorded', async () => {
    razorpay.settle({
      payments: [{ id: 'pay_Dec15', amount: 20_000 }],
      at: at('2026-12-15T09:00'),
    });
    const before = await recorded();
    razorpay.rateLimit = { requests: 0, windowMs: 60_000 };
    try {
      const response = await post('/accounting/tally-export', december);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        message: ACCOUNTING_MESSAGES.razorpayLimited,
      });
    } finally {
      razorpay.rateLimit = undefined;
    }
    expect(await recorded()).toEqual(before);
  });

  it.each([
    ['keys Razorpay does not know', { RAZORPAY_KEY_SECRET: 'not-the-secret' }, 'razorpayRefused'],
    ['an address nobody answers', { RAZORPAY_URL: 'http://127.0.0.1:1' }, 'razorpayUnreachable'],
  ] as const)('%s: a 409 in words, nothing downloaded', async (_what, env, message) => {
    const app = await appOnDatabase(ctx.database, { ...gatewayEnv, ...env }, clock.now);
    try {
      const response = await post('/accounting/tally-export', december, app);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ success: false, message: ACCOUNTING_MESSAGES[message] });
    } finally {
      await app.close();
    }
  });

  it('a Razorpay that never answers: given up at RAZORPAY_TIMEOUT', async () => {
    const app = await appOnDatabase(
      ctx.database,
      { ...gatewayEnv, RAZORPAY_TIMEOUT: '0.5' },
      clock.now,
    );
    razorpay.misbehave = 'stallBeforeHeaders';
    try {
      const response = await post('/accounting/tally-export', december, app);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(ACCOUNTING_MESSAGES.razorpayTimedOut(0.5));
    } finally {
      razorpay.misbehave = undefined;
      await app.close();
    }
  });

  it('without Razorpay keys: the file as before, without payouts, and the header says so', async () => {
    const app = await appOnDatabase(ctx.database, { TALLY_URL: tally.url }, clock.now);
    try {
      const settings = await app.inject(
        authed(owner, { method: 'GET', url: '/api/settings/accounting' }),
      );
      expect(settings.json().data.razorpaySettlements).toBe(false);
      const callsBefore = razorpay.calls.length;
      const response = await exportRange(december, app);
      expect(response.headers[RAZORPAY_SETTLEMENTS_HEADER]).toBe('not-set');
      expect(settlementVouchers(vouchersOf(response.body))).toEqual([]);
      expect(razorpay.calls.length).toBe(callsBefore);
      // November's online receipts still wait in the clearing ledger for the payouts.
      const nov = vouchersOf((await exportRange(november, app)).body);
      expect(settlementVouchers(nov)).toEqual([]);
      expect(netDebit(nov, 'Razorpay Clearing')).toBe(500_000);
    } finally {
      await app.close();
    }
  });
});
