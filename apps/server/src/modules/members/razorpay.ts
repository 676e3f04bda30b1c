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

/** Online payment is on: both keys are set. */
export const gatewaySetUp = (settings: Pick<RazorpaySettings, 'keyId' | 'keySecret'>) =>
  Boolean(settings.keyId && settings.keySecret);

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

/** A settlement as Razorpay's Settlements API states it: amounts in paise, `fees` with its `tax`. */
const settlement = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
    amount: z.number().int().nonnegative(),
    status: z.string(),
    fees: z.number().int().nonnegative(),
    tax: z.number().int().nonnegative(),
    utr: z.string().max(100).nullable().optional(),
    created_at: z.number().int().positive(),
  })
  .refine((row) => row.fees >= row.tax);
const settlements = z.object({ count: z.number().int(), items: z.array(settlement) });
export type RazorpaySettlement = z.infer<typeof settlement>;

/** One row of the settlement recon: a payment, refund, transfer or adjustment and its settlement. */
const reconItem = z.object({
  entity_id: z.string(),
  type: z.string(),
  amount: z.number().int(),
  settlement_id: z.string().nullable().optional(),
});
const recon = z.object({ count: z.number().int(), items: z.array(reconItem) });
export type RazorpayReconItem = z.infer<typeof reconItem>;

/** Razorpay answered, with a status other than 2xx: 429 is its rate limiter's. */
export class RazorpayStatusError extends Error {
  constructor(readonly status: number) {
    super(`razorpay answered ${status}`);
    this.name = 'RazorpayStatusError';
  }
}

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
    if (answer.status < 200 || answer.status >= 300) throw new RazorpayStatusError(answer.status);
    return JSON.parse(answer.text) as unknown;
  };
  const query = (params: Record<string, number | string>) =>
    new URLSearchParams(
      Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]),
    );
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
    /** One page of the settlements created between `from` and `to` (Unix seconds). */
    async settlements(page: { from: number; to: number; count: number; skip: number }) {
      return settlements.parse(await call(`/v1/settlements?${query(page)}`)).items;
    },
    /** One page of the recon of what was settled on a day: each payment, refund, adjustment. */
    async settlementRecon(page: {
      year: number;
      month: number;
      day: number;
      count: number;
      skip: number;
    }) {
      // Month and day as two digits, as Razorpay's own examples write them.
      const { year, month, day, count, skip } = page;
      const two = (value: number) => String(value).padStart(2, '0');
      const params = query({ year, month: two(month), day: two(day), count, skip });
      return recon.parse(await call(`/v1/settlements/recon/combined?${params}`)).items;
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
