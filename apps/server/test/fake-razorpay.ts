import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Razorpay's Orders API, a real HTTP server on 127.0.0.1: orders are made
 * with basic auth (key id and secret) as documented, a payment is "made" by the test (as the
 * checkout would), and the fake signs what Razorpay signs: the checkout's
 * HMAC-SHA256(order_id|payment_id, key secret) and a webhook's HMAC-SHA256(raw body, webhook
 * secret).
 */
export interface FakeRazorpayOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  notes: Record<string, string>;
  payments: { id: string; status: 'captured' | 'failed' }[];
}

export interface FakeRazorpay {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  readonly orders: Map<string, FakeRazorpayOrder>;
  /** Captures a payment on the order; answers what the checkout hands back to the page. */
  pay(orderId: string): {
    razorpay_order_id: string;
    razorpay_payment_id: string;
    razorpay_signature: string;
  };
  /** A webhook delivery of `payment.captured` for the order's payment, signed. */
  webhook(
    orderId: string,
    paymentId: string,
    eventId?: string,
  ): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex')}`;
const sign = (text: string, secret: string) =>
  createHmac('sha256', secret).update(text).digest('hex');

export async function startFakeRazorpay(): Promise<FakeRazorpay> {
  const keyId = 'rzp_test_kanak';
  const keySecret = randomBytes(12).toString('hex');
  const webhookSecret = randomBytes(12).toString('hex');
  const orders = new Map<string, FakeRazorpayOrder>();
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== expectedAuth)
        return send(401, {
          error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' },
        });
      const url = request.url ?? '';
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
            amount: order.amount,
            currency: 'INR',
            status: payment.status,
            order_id: order.id,
          })),
        });
      }
      send(404, { error: { code: 'BAD_REQUEST_ERROR', description: 'not found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    keyId,
    keySecret,
    webhookSecret,
    orders,
    pay(orderId) {
      const order = orders.get(orderId)!;
      const paymentId = id('pay');
      order.payments.push({ id: paymentId, status: 'captured' });
      return {
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: sign(`${orderId}|${paymentId}`, keySecret),
      };
    },
    webhook(orderId, paymentId, eventId = id('evt')) {
      const order = orders.get(orderId)!;
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
              amount: order.amount,
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
