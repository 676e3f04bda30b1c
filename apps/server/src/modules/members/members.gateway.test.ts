import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_PATHS, API_PREFIX, MEMBER_API_PATHS, MEMBER_MESSAGES } from '@kanak/contract';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fake-razorpay.js';
import { appOnDatabase, servicesOn } from '../../../test/helpers.js';
import { startRecorder, type Misbehaviour, type Recorder } from '../../../test/misbehaving-http.js';
import { noticeShop, type NoticeShop } from '../../../test/notices.js';

/**
 * A payment gateway address that answers as a hostile or broken server would: a redirect
 * elsewhere (which would carry the key's basic auth and the order), an answer that never starts
 * or never ends, an answer without end. The customer's Pay and the reconcile job each give up
 * within RAZORPAY_TIMEOUT or the answer's cap, say so as on any failed call, and work again
 * once the gateway does.
 */

const TODAY = '2026-03-10';
const TIMEOUT = 0.5;
let shop: NoticeShop;
let razorpay: FakeRazorpay;
let elsewhere: Recorder;
let env: NodeJS.ProcessEnv;

const url = (path: string, params: Record<string, string | number> = {}) =>
  API_PREFIX +
  Object.entries(params).reduce((p, [name, value]) => p.replace(`:${name}`, String(value)), path);

let address = 0;
const from = () => `10.8.${Math.floor(++address / 250)}.${address % 250}`;

/** A customer with an active scheme, March paid at the counter, and a member token: April is due. */
let mobiles = 0;
async function member() {
  const mobile = `98222${String(++mobiles).padStart(5, '0')}`;
  const custid = await shop.customer(mobile, `Customer ${mobiles}`);
  const { data } = await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
    custid,
    mobileno: mobile,
    custname: `Customer ${mobiles}`,
    startdt: '2026-03-05',
    amount: 2500,
  });
  const { schemeid } = data;
  await shop.call(API_PATHS.activateScheme, { schemeid, date: '2026-03-05', mode: 'cash' });
  const ask = await shop.app.inject({
    method: 'POST',
    url: url(MEMBER_API_PATHS.memberOtp),
    payload: { mobile },
    remoteAddress: from(),
  });
  expect(ask.statusCode).toBe(200);
  const code = await vi.waitFor(() => {
    const sent = shop.fake.messages.find((message) => message.mobile === mobile);
    expect(sent).toBeDefined();
    return /(\d{6})/.exec(sent!.text)![1]!;
  });
  const verified = await shop.app.inject({
    method: 'POST',
    url: url(MEMBER_API_PATHS.memberVerify),
    payload: { mobile, code },
    remoteAddress: from(),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const token = verified.json<{ data: { token: string } }>().data.token;
  /** Pay, through the shop's app or another on its database. */
  const pay = async (app = shop.app) => {
    const started = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: url(MEMBER_API_PATHS.memberPay, { schemeid }),
      headers: { authorization: `Bearer ${token}` },
    });
    return { response, ms: performance.now() - started };
  };
  return { schemeid, pay };
}

const ordersOf = (schemeid: number) =>
  shop.sql<{ order_id: string }>(`SELECT order_id FROM online_orders WHERE scheme_id = $1`, [
    schemeid,
  ]);

beforeAll(async () => {
  razorpay = await startFakeRazorpay();
  elsewhere = await startRecorder();
  env = {
    RAZORPAY_URL: razorpay.url,
    RAZORPAY_KEY_ID: razorpay.keyId,
    RAZORPAY_KEY_SECRET: razorpay.keySecret,
    RAZORPAY_WEBHOOK_SECRET: razorpay.webhookSecret,
    RAZORPAY_TIMEOUT: String(TIMEOUT),
  };
  shop = await noticeShop({ clock: () => new Date(`${TODAY}T12:00:00+05:30`), env });
  await shop.savePanel(1);
});
afterAll(async () => {
  await shop?.close();
  await razorpay?.close();
  await elsewhere?.close();
});
beforeEach(() => {
  razorpay.misbehave = undefined;
  elsewhere.received.length = 0;
});

describe("the customer's Pay, against a gateway that misbehaves", () => {
  it('a 307 elsewhere: not followed, nothing (order, key) reaches the other host; 502, no order kept', async () => {
    const { schemeid, pay } = await member();
    razorpay.misbehave = { redirect: { status: 307, to: `${elsewhere.url}/v1/orders` } };
    const { response } = await pay();
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      success: false,
      message: MEMBER_MESSAGES.gatewayUnavailable,
    });
    expect(razorpay.calls.at(-1)).toBe('POST /v1/orders');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(elsewhere.received).toEqual([]);
    expect(await ordersOf(schemeid)).toEqual([]);
  });

  it.each([
    ['never answers', 'stallBeforeHeaders'],
    ['answers its headers, then nothing', 'stallAfterHeaders'],
  ] as const)(
    'a gateway that %s: given up at RAZORPAY_TIMEOUT, the customer told to try again',
    async (_what, how) => {
      const { schemeid, pay } = await member();
      razorpay.misbehave = how;
      const { response, ms } = await pay();
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(MEMBER_MESSAGES.gatewayUnavailable);
      expect(ms).toBeLessThan(TIMEOUT * 1000 + 2500);
      await vi.waitFor(() =>
        expect(razorpay.misbehaved.at(-1)).toMatchObject({ how, closedEarly: true }),
      );
      expect(await ordersOf(schemeid)).toEqual([]);
    },
  );

  it('an answer without end: cut at 1 MB, not read until the timeout; the same Pay works once the gateway does', async () => {
    const { schemeid, pay } = await member();
    // A patient server: only the cap can end this answer in time.
    const patient = await appOnDatabase(
      shop.database,
      { ...env, RAZORPAY_TIMEOUT: '20' },
      () => new Date(`${TODAY}T12:00:00+05:30`),
    );
    try {
      razorpay.misbehave = { flood: Number.POSITIVE_INFINITY };
      const { response, ms } = await pay(patient);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(MEMBER_MESSAGES.gatewayUnavailable);
      expect(ms).toBeLessThan(5000);
      await vi.waitFor(() =>
        expect(razorpay.misbehaved.at(-1)).toMatchObject({ closedEarly: true }),
      );
      expect(razorpay.misbehaved.at(-1)!.bytesWritten).toBeLessThan(32 * 1024 * 1024);
      razorpay.misbehave = undefined;
      const again = await pay(patient);
      expect(again.response.statusCode, again.response.body).toBe(200);
      expect(await ordersOf(schemeid)).toHaveLength(1);
    } finally {
      await patient.close();
    }
  });
});

describe('the reconcile job, against a gateway that misbehaves', () => {
  /** Three orders the customers started 20 minutes ago and paid, unheard of since. */
  async function openOrders() {
    const orders: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { pay } = await member();
      const { response } = await pay();
      expect(response.statusCode, response.body).toBe(200);
      const { orderId } = response.json<{ data: { orderId: string } }>().data;
      razorpay.pay(orderId);
      orders.push(orderId);
    }
    await shop.sql(
      `UPDATE online_orders SET created_at = now() - interval '20 minutes'
        WHERE order_id = ANY($1)`,
      [orders],
    );
    return orders;
  }

  it.each<[string, () => Misbehaviour]>([
    ['stalls', () => 'stallAfterHeaders'],
    ['floods', () => ({ flood: Number.POSITIVE_INFINITY })],
    ['redirects', () => ({ redirect: { status: 307, to: `${elsewhere.url}/v1/orders` } })],
  ])(
    'a gateway that %s: the run stops at the first order and records nothing; the next run records them',
    async (_what, how) => {
      const orders = await openOrders();
      const job = servicesOn(shop.database, env).memberPayments;
      razorpay.misbehave = how();
      const asked = razorpay.calls.length;
      const started = performance.now();
      expect(await job.reconcile()).toEqual({ checked: 3, settled: 0 });
      // One wait, not one per order.
      expect(performance.now() - started).toBeLessThan(TIMEOUT * 1000 + 2500);
      expect(razorpay.calls.length - asked).toBe(1);
      expect(elsewhere.received).toEqual([]);
      razorpay.misbehave = undefined;
      expect(await job.reconcile()).toEqual({ checked: 3, settled: 3 });
      const settled = await shop.sql(
        `SELECT 1 FROM online_orders WHERE order_id = ANY($1) AND status <> 'created'`,
        [orders],
      );
      expect(settled).toHaveLength(3);
    },
  );
});
