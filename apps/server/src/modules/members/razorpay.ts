import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { callOutbound } from '../../lib/outbound.js';

/** Where Kanak reaches Razorpay and the keys it signs with; unset keys: online payment is off. */
export interface RazorpaySettings {
  url: string;
  keyId: string | undefined;
  keySecret: string | undefined;
  webhookSecret: string | undefined;
  /** Razorpay's checkout script, handed to the customer's page with each order. */
  checkoutUrl: string;
  /** How long one call may take, answer and all (`RAZORPAY_TIMEOUT`); GATEWAY_TIMEOUT_MS unset. */
  timeoutMs?: number | undefined;
}

/** How long Kanak waits for the gateway's whole answer before telling the customer to try again. */
export const GATEWAY_TIMEOUT_MS = 10_000;
/** An order or an order's payments is a few KB of JSON. */
export const GATEWAY_ANSWER_MAX_BYTES = 1024 * 1024;

const order = z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/), amount: z.number() });
const payments = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      order_id: z.string().nullable().optional(),
      /** Paise, as Razorpay states every amount. */
      amount: z.number(),
    }),
  ),
});

/** HMAC-SHA256 of `text` under `secret`, compared in constant time with the hex `signature`. */
export function signatureMatches(text: string | Buffer, secret: string, signature: string) {
  const expected = createHmac('sha256', secret).update(text).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Razorpay's Orders API, as documented: basic auth with the key id and secret. */
export function razorpayClient(settings: RazorpaySettings & { keyId: string; keySecret: string }) {
  const auth = `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`;
  const limits = {
    timeoutMs: settings.timeoutMs ?? GATEWAY_TIMEOUT_MS,
    maxBytes: GATEWAY_ANSWER_MAX_BYTES,
  };
  // Through callOutbound: a redirect would carry the key's basic auth and the order elsewhere.
  const call = async (path: string, init: { method?: string; body?: string } = {}) => {
    const answer = await callOutbound(
      `${settings.url.replace(/\/$/, '')}${path}`,
      { ...init, headers: { authorization: auth, 'content-type': 'application/json' } },
      limits,
    );
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`razorpay answered ${answer.status}`);
    return JSON.parse(answer.text) as unknown;
  };
  return {
    async createOrder(body: {
      amount: number;
      currency: 'INR';
      receipt: string;
      notes: Record<string, string>;
    }) {
      return order.parse(await call('/v1/orders', { method: 'POST', body: JSON.stringify(body) }));
    },
    /** The payments captured for the order, each with its amount in paise. */
    async capturedPayments(orderId: string) {
      const answer = payments.parse(
        await call(`/v1/orders/${encodeURIComponent(orderId)}/payments`),
      );
      return answer.items
        .filter((item) => item.status === 'captured' && (item.order_id ?? orderId) === orderId)
        .map((item) => ({ id: item.id, amountPaise: item.amount }));
    },
  };
}

/** The parts of a webhook's event Kanak acts on: a captured payment and its order. */
export const webhookEvent = z.object({
  event: z.string(),
  payload: z.object({
    payment: z
      .object({
        entity: z.object({
          id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
          order_id: z
            .string()
            .regex(/^[A-Za-z0-9_]{1,64}$/)
            .nullable()
            .optional(),
          status: z.string(),
          /** Paise: what was paid, checked against the order's amount before anything is recorded. */
          amount: z.number().optional(),
        }),
      })
      .optional(),
    order: z.object({ entity: z.object({ id: z.string() }) }).optional(),
  }),
});
