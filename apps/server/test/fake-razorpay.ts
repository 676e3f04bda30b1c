import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { misbehave, type Misbehaved, type Misbehaviour } from './misbehaving-http.js';

/**
 * A local stand-in for Razorpay's Orders API, a real HTTP server on 127.0.0.1: orders are made
 * with basic auth (key id and secret) as documented, a payment is "made" by the test (as the
 * checkout would), and the fake signs what Razorpay signs: the checkout's
 * HMAC-SHA256(order_id|payment_id, key secret) and a webhook's HMAC-SHA256(raw body, webhook
 * secret).
 *
 * It also serves a Standard Checkout for browsers, without auth as Razorpay's is:
 * GET /v1/checkout.js defines `window.Razorpay`; `new Razorpay(options).open()` shows the fake's
 * own payment page (GET /_fake/checkout?order_id=…&key_id=…) in a frame over the page. Its Pay
 * button captures a payment on the order (as `pay()` does) and the frame posts
 * { razorpay_payment_id, razorpay_order_id, razorpay_signature } to the page, where the script
 * calls `options.handler` with them; Cancel calls `options.modal.ondismiss`.
 *
 * Settlements, as Razorpay's Settlements API serves them: the test settles payments (`settle`,
 * as Razorpay's settlement cycle would: each payment less a 2% fee and 18% GST on that fee,
 * refunds taken off) and GET /v1/settlements?from=&to=&count=&skip= lists them newest first
 * (count 1–100, default 10), GET /v1/settlements/:id answers one, and GET
 * /v1/settlements/recon/combined?year=&month=&day=&count=&skip= lists what was settled on an
 * Indian day (count 1–1000), each row with its `settlement_id`. Given a `rateLimit`, it answers
 * 429 past that many API calls in the window, as Razorpay's rate limiter does.
 *
 * Told to `misbehave`, its API (the calls with the key's basic auth) answers as a hostile or
 * broken server would: a redirect, a stall, a flood.
 *
 * Alone: `npx tsx apps/server/test/fake-razorpay.ts [port]` prints its address, key id and
 * secrets as JSON and runs until stopped.
 */
export interface FakeRazorpayOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  notes: Record<string, string>;
  /** Each payment's amount in paise: the order's, unless the test paid another. */
  payments: { id: string; status: 'captured' | 'failed'; amount: number }[];
}

/** A row of the settlement recon, as Razorpay's documents show it. */
export interface FakeReconItem {
  entity_id: string;
  type: 'payment' | 'refund' | 'adjustment';
  debit: number;
  credit: number;
  amount: number;
  currency: 'INR';
  /** Razorpay's fee with the GST on it. */
  fee: number;
  tax: number;
  on_hold: boolean;
  settled: boolean;
  created_at: number;
  settled_at: number;
  settlement_id: string;
  settlement_utr: string;
  payment_id: string | null;
  order_id: string | null;
  description: string | null;
}

export interface FakeRazorpaySettlement {
  id: string;
  entity: 'settlement';
  /** Paise paid to the bank. */
  amount: number;
  status: 'created' | 'processed' | 'failed';
  /** Razorpay's fee with the GST on it. */
  fees: number;
  tax: number;
  utr: string;
  created_at: number;
  /** What it settled (the recon's rows). */
  items: FakeReconItem[];
}

export interface FakeRazorpay {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  readonly orders: Map<string, FakeRazorpayOrder>;
  /** The browser's checkout script, for RAZORPAY_CHECKOUT_URL. */
  checkoutUrl: string;
  /**
   * Captures a payment on the order (of the order's amount, or `amount` paise: what a gateway
   * with partial payments, or a tampered one, would report); answers what the checkout hands
   * back to the page.
   */
  pay(
    orderId: string,
    options?: { amount?: number },
  ): {
    razorpay_order_id: string;
    razorpay_payment_id: string;
    razorpay_signature: string;
  };
  /** The API's answer instead of Razorpay's, until unset. */
  misbehave: Misbehaviour | undefined;
  /** What became of each misbehaving answer, in order (when the client went away). */
  readonly misbehaved: Misbehaved[];
  /** The API calls received, as `METHOD /path`. */
  readonly calls: string[];
  /** The settlements made, oldest first. */
  readonly settlements: FakeRazorpaySettlement[];
  /**
   * Settles these payments (and takes off these refunds) at `at`, as Razorpay's settlement
   * cycle does: each payment less a 2% fee and 18% GST on it. `processed` unless told.
   */
  settle(what: {
    payments: { id: string; amount: number; orderId?: string }[];
    refunds?: { id: string; paymentId: string; amount: number }[];
    at: Date;
    status?: FakeRazorpaySettlement['status'];
  }): FakeRazorpaySettlement;
  /** At most this many API calls in a window of `windowMs`; past it, 429. Unset: no limit. */
  rateLimit: { requests: number; windowMs: number } | undefined;
  /** The API calls answered 429. */
  readonly limited: string[];
  /** A webhook delivery of `payment.captured` for the order's payment (its amount), signed. */
  webhook(
    orderId: string,
    paymentId: string,
    eventId?: string,
  ): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex')}`;

/**
 * The browser's side of the fake checkout: `window.Razorpay` as Razorpay's documented script
 * defines it (`new Razorpay(options)`, `.open()`, `.on(event, fn)`), showing the fake's payment
 * page in a full-screen frame and handing its answer to `options.handler`.
 */
const CHECKOUT_JS = `(function () {
  var script = document.currentScript;
  var origin = new URL(script.src).origin;
  function Razorpay(options) {
    this.options = options || {};
    this.listeners = {};
  }
  Razorpay.prototype.on = function (event, listener) {
    this.listeners[event] = listener;
  };
  Razorpay.prototype.open = function () {
    var options = this.options;
    var frame = document.createElement('iframe');
    frame.src = origin + '/_fake/checkout?order_id=' + encodeURIComponent(options.order_id) +
      '&key_id=' + encodeURIComponent(options.key) +
      '&name=' + encodeURIComponent(options.name || '');
    frame.title = 'Razorpay Checkout';
    frame.setAttribute('style', 'position:fixed;inset:0;width:100%;height:100%;border:0;' +
      'z-index:2147483647;background:rgba(0,0,0,0.6)');
    function close() {
      window.removeEventListener('message', onMessage);
      frame.remove();
    }
    function onMessage(event) {
      if (event.origin !== origin || event.source !== frame.contentWindow) return;
      var data = event.data || {};
      if (data.kind === 'paid') {
        close();
        if (options.handler) options.handler(data.response);
      } else if (data.kind === 'dismissed') {
        close();
        if (options.modal && options.modal.ondismiss) options.modal.ondismiss();
      }
    }
    window.addEventListener('message', onMessage);
    document.body.appendChild(frame);
  };
  window.Razorpay = Razorpay;
})();
`;

/** The fake's payment page for an order: its amount, a Pay button and a Cancel button. */
const checkoutPage = (order: FakeRazorpayOrder, name: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Razorpay Checkout</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{margin:0;font-family:system-ui,sans-serif;display:flex;align-items:center;justify-content:center;min-height:100vh}
main{background:#fff;color:#1a1a1a;border-radius:12px;padding:24px;width:min(320px,90vw)}
button{font-size:16px;padding:12px;width:100%;margin-top:12px;border-radius:8px;border:2px solid #0b3d91;cursor:pointer}
#pay{background:#0b3d91;color:#fff}#cancel{background:#fff;color:#0b3d91}
button:focus-visible{outline:3px solid #000;outline-offset:2px}
</style></head>
<body><main>
<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(name || 'Payment')}</h1>
<p>Order ${escapeHtml(order.id)}</p>
<p>Amount ₹${(order.amount / 100).toFixed(2)}</p>
<button id="pay" type="button" disabled>Pay</button>
<button id="cancel" type="button" disabled>Cancel</button>
</main>
<script>
// The buttons are drawn before this script runs: they stay disabled until it listens, so a
// press in between is not lost (a test waits for them to be enabled).
document.getElementById('pay').addEventListener('click', function () {
  fetch('/_fake/checkout/pay', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order_id: ${JSON.stringify(order.id)} })
  }).then(function (r) { return r.json(); }).then(function (response) {
    parent.postMessage({ kind: 'paid', response: response }, '*');
  });
});
document.getElementById('cancel').addEventListener('click', function () {
  parent.postMessage({ kind: 'dismissed' }, '*');
});
document.getElementById('pay').disabled = false;
document.getElementById('cancel').disabled = false;
</script></body></html>`;

/** Razorpay's fee on a payment (2%) and the GST on that fee (18%), in paise. */
function feeOf(amount: number) {
  const fee = Math.round(amount * 0.02);
  const tax = Math.round(fee * 0.18);
  return { fee: fee + tax, tax };
}

/** The Indian day (YYYY-MM-DD) of a Unix time: Razorpay's recon days are India's. */
const indianDay = (seconds: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(seconds * 1000));

const badRequest = (description: string, field?: string) => ({
  error: {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'business',
    step: 'payment_initiation',
    reason: 'input_validation_failed',
    metadata: {},
    ...(field ? { field } : {}),
  },
});

/** A whole number query parameter within [min, max], its default when absent. */
function numberParam(
  params: URLSearchParams,
  name: string,
  { fallback, min, max }: { fallback?: number; min: number; max: number },
): number | { error: ReturnType<typeof badRequest> } {
  const text = params.get(name);
  if (text === null || text === '') {
    if (fallback === undefined)
      return { error: badRequest(`The ${name} field is required.`, name) };
    return fallback;
  }
  const value = Number(text);
  if (!/^\d+$/.test(text)) return { error: badRequest(`The ${name} must be an integer.`, name) };
  if (value < min) return { error: badRequest(`The ${name} must be at least ${min}.`, name) };
  if (value > max)
    return { error: badRequest(`The ${name} may not be greater than ${max}.`, name) };
  return value;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const sign = (text: string, secret: string) =>
  createHmac('sha256', secret).update(text).digest('hex');

export async function startFakeRazorpay(port = 0): Promise<FakeRazorpay> {
  const keyId = 'rzp_test_kanak';
  const keySecret = randomBytes(12).toString('hex');
  const webhookSecret = randomBytes(12).toString('hex');
  const orders = new Map<string, FakeRazorpayOrder>();
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
  const misbehaved: Misbehaved[] = [];
  const calls: string[] = [];
  const settlements: FakeRazorpaySettlement[] = [];
  const limited: string[] = [];
  let windowStart = 0;
  let windowCalls = 0;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const address = new URL(request.url ?? '/', 'http://fake');
      // The browser's checkout: public, as Razorpay's is; the key id names the merchant.
      if (request.method === 'GET' && address.pathname === '/v1/checkout.js') {
        response.writeHead(200, {
          'content-type': 'application/javascript; charset=utf-8',
          'cache-control': 'no-store',
        });
        return response.end(CHECKOUT_JS);
      }
      if (request.method === 'GET' && address.pathname === '/_fake/checkout') {
        const order = orders.get(address.searchParams.get('order_id') ?? '');
        if (!order || address.searchParams.get('key_id') !== keyId)
          return send(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'bad order' } });
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(checkoutPage(order, address.searchParams.get('name') ?? ''));
      }
      if (request.method === 'POST' && address.pathname === '/_fake/checkout/pay') {
        let orderId = '';
        try {
          orderId = String(
            (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { order_id?: unknown })
              .order_id ?? '',
          );
        } catch {
          // an unreadable body names no order
        }
        if (!orders.has(orderId))
          return send(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'bad order' } });
        return send(200, fake.pay(orderId));
      }
      if (request.headers.authorization !== expectedAuth)
        return send(401, {
          error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' },
        });
      const url = request.url ?? '';
      calls.push(`${request.method} ${url}`);
      if (fake.rateLimit) {
        const now = Date.now();
        if (now - windowStart >= fake.rateLimit.windowMs) {
          windowStart = now;
          windowCalls = 0;
        }
        if (++windowCalls > fake.rateLimit.requests) {
          limited.push(`${request.method} ${url}`);
          return send(429, {
            error: {
              code: 'BAD_REQUEST_ERROR',
              description: 'Too many requests',
              source: 'NA',
              step: 'NA',
              reason: 'NA',
              metadata: {},
            },
          });
        }
      }
      if (fake.misbehave) {
        void misbehave(response, fake.misbehave).then((what) => misbehaved.push(what));
        return;
      }
      if (request.method === 'GET' && address.pathname.replace(/\/$/, '') === '/v1/settlements') {
        const params = address.searchParams;
        const count = numberParam(params, 'count', { fallback: 10, min: 1, max: 100 });
        const skip = numberParam(params, 'skip', { fallback: 0, min: 0, max: 1e9 });
        const from = numberParam(params, 'from', { fallback: 0, min: 0, max: 1e10 });
        const to = numberParam(params, 'to', { fallback: 1e10, min: 0, max: 1e10 });
        for (const value of [count, skip, from, to])
          if (typeof value === 'object') return send(400, value.error);
        const [c, k, f, t] = [count, skip, from, to] as number[];
        const items = settlements
          .filter((made) => made.created_at >= f! && made.created_at <= t!)
          .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))
          .slice(k, k! + c!)
          .map(({ items: _items, ...settlement }) => settlement);
        return send(200, { entity: 'collection', count: items.length, items });
      }
      if (request.method === 'GET' && address.pathname === '/v1/settlements/recon/combined') {
        const params = address.searchParams;
        const year = numberParam(params, 'year', { min: 2000, max: 2100 });
        const month = numberParam(params, 'month', { min: 1, max: 12 });
        const day = params.has('day') ? numberParam(params, 'day', { min: 1, max: 31 }) : 0;
        const count = numberParam(params, 'count', { fallback: 10, min: 1, max: 1000 });
        const skip = numberParam(params, 'skip', { fallback: 0, min: 0, max: 1e9 });
        for (const value of [year, month, day, count, skip])
          if (typeof value === 'object') return send(400, value.error);
        const [y, m, d, c, k] = [year, month, day, count, skip] as number[];
        const prefix = `${y}-${String(m).padStart(2, '0')}${d ? `-${String(d).padStart(2, '0')}` : ''}`;
        const items = settlements
          .filter((made) => made.status === 'processed')
          .flatMap((made) => made.items)
          .filter((item) => indianDay(item.settled_at).startsWith(prefix))
          .slice(k, k! + c!);
        return send(200, { entity: 'collection', count: items.length, items });
      }
      const settlementOf = /^\/v1\/settlements\/(setl_[A-Za-z0-9]+)$/.exec(address.pathname);
      if (request.method === 'GET' && settlementOf) {
        const made = settlements.find((settlement) => settlement.id === settlementOf[1]);
        if (!made) return send(400, badRequest('The id provided does not exist', 'id'));
        const { items: _items, ...settlement } = made;
        return send(200, settlement);
      }
      if (request.method === 'POST' && url === '/v1/orders') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRazorpayOrder;
        if (!Number.isInteger(body.amount) || body.amount < 100 || body.currency !== 'INR')
          return send(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'bad amount' } });
        const order = { ...body, id: id('order'), payments: [] };
        orders.set(order.id, order);
        return send(200, {
          id: order.id,
          entity: 'order',
          amount: order.amount,
          amount_paid: 0,
          amount_due: order.amount,
          currency: order.currency,
          receipt: order.receipt,
          status: 'created',
          attempts: 0,
          notes: order.notes,
          created_at: Math.floor(Date.now() / 1000),
        });
      }
      const paymentsOf = /^\/v1\/orders\/([A-Za-z0-9_]+)\/payments$/.exec(url);
      if (request.method === 'GET' && paymentsOf) {
        const order = orders.get(paymentsOf[1]!);
        if (!order) return send(400, { error: { code: 'BAD_REQUEST_ERROR' } });
        return send(200, {
          entity: 'collection',
          count: order.payments.length,
          items: order.payments.map((payment) => ({
            id: payment.id,
            entity: 'payment',
            amount: payment.amount,
            currency: 'INR',
            status: payment.status,
            order_id: order.id,
          })),
        });
      }
      send(404, { error: { code: 'BAD_REQUEST_ERROR', description: 'not found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;

  const fake: FakeRazorpay = {
    url: `http://127.0.0.1:${address.port}`,
    checkoutUrl: `http://127.0.0.1:${address.port}/v1/checkout.js`,
    keyId,
    keySecret,
    webhookSecret,
    orders,
    misbehave: undefined,
    misbehaved,
    calls,
    settlements,
    rateLimit: undefined,
    limited,
    settle({ payments, refunds = [], at, status = 'processed' }) {
      const settledAt = Math.floor(at.getTime() / 1000);
      const settlementId = id('setl');
      const utr = `UTR${randomBytes(6).toString('hex').toUpperCase()}`;
      const row = (item: Partial<FakeReconItem>): FakeReconItem => ({
        entity_id: '',
        type: 'payment',
        debit: 0,
        credit: 0,
        amount: 0,
        currency: 'INR',
        fee: 0,
        tax: 0,
        on_hold: false,
        settled: true,
        created_at: settledAt - 2 * 86_400,
        settled_at: settledAt,
        settlement_id: settlementId,
        settlement_utr: utr,
        payment_id: null,
        order_id: null,
        description: null,
        ...item,
      });
      const items = [
        ...payments.map((payment) => {
          const { fee, tax } = feeOf(payment.amount);
          return row({
            entity_id: payment.id,
            type: 'payment',
            credit: payment.amount - fee,
            amount: payment.amount,
            fee,
            tax,
            order_id: payment.orderId ?? null,
          });
        }),
        ...refunds.map((refund) =>
          row({
            entity_id: refund.id,
            type: 'refund',
            debit: refund.amount,
            amount: refund.amount,
            payment_id: refund.paymentId,
          }),
        ),
      ];
      const settlement: FakeRazorpaySettlement = {
        id: settlementId,
        entity: 'settlement',
        amount: items.reduce((sum, item) => sum + item.credit - item.debit, 0),
        status,
        fees: items.reduce((sum, item) => sum + item.fee, 0),
        tax: items.reduce((sum, item) => sum + item.tax, 0),
        utr,
        created_at: settledAt,
        items,
      };
      settlements.push(settlement);
      return settlement;
    },
    pay(orderId, options = {}) {
      const order = orders.get(orderId)!;
      const paymentId = id('pay');
      order.payments.push({
        id: paymentId,
        status: 'captured',
        amount: options.amount ?? order.amount,
      });
      return {
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: sign(`${orderId}|${paymentId}`, keySecret),
      };
    },
    webhook(orderId, paymentId, eventId = id('evt')) {
      const order = orders.get(orderId)!;
      const payment = order.payments.find((made) => made.id === paymentId);
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_kanak',
        event: 'payment.captured',
        contains: ['payment'],
        payload: {
          payment: {
            entity: {
              id: paymentId,
              entity: 'payment',
              amount: payment?.amount ?? order.amount,
              currency: 'INR',
              status: 'captured',
              order_id: orderId,
              method: 'upi',
            },
          },
        },
        created_at: Math.floor(Date.now() / 1000),
      });
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': sign(body, webhookSecret),
          'x-razorpay-event-id': eventId,
        },
      };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fake = await startFakeRazorpay(Number(process.argv[2] ?? 0));
  const { url, keyId, keySecret, webhookSecret } = fake;
  console.log(JSON.stringify({ url, keyId, keySecret, webhookSecret }));
  process.once('SIGINT', () => void fake.close());
  process.once('SIGTERM', () => void fake.close());
}
