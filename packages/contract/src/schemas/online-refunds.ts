import { z } from 'zod';
import { dataResponse } from './common.js';

/**
 * Money a customer paid online that bought no installment, for staff to refund from the
 * gateway's dashboard: a month meanwhile paid at the counter, an order paid twice, or a payment
 * whose amount is not the order's (never recorded as an installment).
 */
export const ONLINE_REFUND_REASONS = ['monthPaid', 'paidTwice', 'amountMismatch'] as const;
export type OnlineRefundReason = (typeof ONLINE_REFUND_REASONS)[number];

export const onlineRefund = z.object({
  paymentId: z.string(),
  orderId: z.string(),
  schemeid: z.number(),
  custname: z.string(),
  mobileno: z.string(),
  /** Rupees received: what there is to refund. */
  amount: z.number(),
  /** Rupees the order asked for (the installment). */
  expected: z.number(),
  /** The month the customer meant to pay, YYYY-MM. */
  forMonth: z.string(),
  /** When the payment was seen, ISO 8601. */
  paidAt: z.string(),
  reason: z.enum(ONLINE_REFUND_REASONS),
  /** The code of the branch that started the scheme: it pays the refund. */
  branch: z.string(),
});
export type OnlineRefund = z.infer<typeof onlineRefund>;
export const onlineRefundsResponse = dataResponse(z.array(onlineRefund));

/** Staff refunded the payment at the gateway; `reference` is the gateway's refund id. */
export const markOnlineRefundRequest = z.object({
  paymentId: z
    .string({ error: 'The payment id is required.' })
    .regex(/^[A-Za-z0-9_]{1,64}$/, { error: 'The payment id is not a Razorpay payment id.' }),
  reference: z
    .string({ error: 'Refund reference is required.' })
    .trim()
    .min(1, { error: "Enter the gateway's refund id (rfnd_…)." })
    .max(64, { error: 'Refund reference must be at most 64 characters.' })
    .regex(/^[A-Za-z0-9_\-/]+$/, {
      error: 'Refund reference can have letters, digits, _ - and / only.',
    }),
});
export type MarkOnlineRefundRequest = z.input<typeof markOnlineRefundRequest>;
