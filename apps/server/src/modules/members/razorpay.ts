import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** Where Kanak reaches Razorpay and the keys it signs with; unset keys: online payment is off. */
export interface RazorpaySettings {
  url: string;
  keyId: string | undefined;
  keySecret: string | undefined;
  webhookSecret: string | undefined;
  /** Razorpay's checkout script, handed to the customer's page with each order. */
  checkoutUrl: string;
}

/** How long Kanak waits for the gateway before telling the customer to try again. */
const GATEWAY_TIMEOUT_MS = 10_000;

const order = z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/), amount: z.number() });
const payments = z.object({
  items: z.array(
    z.object({ id: z.string(), status: z.string(), order_id: z.string().nullable().optional() }),
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
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${settings.url.replace(/\/$/, '')}${path}`, {
      ...init,
      headers: { authorization: auth, 'content-type': 'application/json', ...init.headers },
      redirect: 'error',
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`razorpay answered ${response.status}`);
    return (await response.json()) as unknown;
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
    /** The payment captured for the order, if any. */
    async capturedPayment(orderId: string) {
      const answer = payments.parse(
        await call(`/v1/orders/${encodeURIComponent(orderId)}/payments`),
      );
      return answer.items.find(
        (item) => item.status === 'captured' && (item.order_id ?? orderId) === orderId,
      )?.id;
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
        }),
      })
      .optional(),
    order: z.object({ entity: z.object({ id: z.string() }) }).optional(),
  }),
});
