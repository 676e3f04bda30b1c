import { z } from 'zod';
import { fieldName } from '../refusals.js';
import { dataResponse } from './common.js';
import { consentPurpose, consentState } from './data-rights.js';
import { installmentReceipt, RECORDED_MODES } from './schemes.js';
import { tierStanding } from './tier-standing.js';

/**
 * The customer's own side: sign-in by a one-time code, their points and schemes, their data
 * rights, and paying an installment online.
 */

const mobile = z
  .string({ error: 'Mobile no. is required.' })
  .trim()
  .regex(/^\d{10}$/, { error: 'Mobile no. must be 10 digits.' });

export const memberOtpRequest = z.object({ mobile });
export const memberOtpResponse = dataResponse(z.object({ expiresInSeconds: z.number() }));

export const memberVerifyRequest = z.object({
  mobile,
  code: z
    .string({ error: 'Code is required.' })
    .trim()
    .regex(/^\d{6}$/, { error: 'Code must be 6 digits.' }),
});
export const memberVerifyResponse = dataResponse(
  z.object({ token: z.string(), expiresInSeconds: z.number() }),
);

/**
 * The installment the customer pays next online, by the rule the pay call keeps (this month's,
 * or, once that is paid, the next month's, within the term): the one Pay takes now (`now`), or,
 * with this month's and the next month's paid, the next month still unpaid.
 */
export const memberNextInstallment = z.object({
  /** The month (YYYY-MM) it is for. */
  month: z.string(),
  /** Its number among the scheme's installments, as its receipt will give it. */
  installmentNo: z.number(),
  /** The day it falls due. */
  dueOn: z.string(),
  /** Still unpaid past the grace days after that day. */
  overdue: z.boolean(),
  /** Its month may be paid now. */
  now: z.boolean(),
  /** Pay takes it now: its month may be paid now, and the shop takes payments online. */
  online: z.boolean(),
});

export const memberScheme = z.object({
  schemeid: z.number(),
  startdt: z.string(),
  matdt: z.string(),
  amount: z.number(),
  paid: z.number(),
  installments: z.number(),
  /** The oldest unpaid installment's due date; null once all are paid. */
  nextDue: z.string().nullable(),
  /** n Inactive, a Active, m Completed. */
  status: z.string(),
  /** Null once nothing more can be paid online (all paid, matured, not Active). */
  nextInstallment: memberNextInstallment.nullable(),
});

/** A scheme on the customer's home: the plan it is on (none: the standard scheme). */
export const memberHomeScheme = memberScheme.extend({
  plan: z.object({ code: z.string(), name: z.string(), kind: z.string() }).optional(),
  /** A weight plan's gold bought so far, in grams. */
  grams: z.number().optional(),
  /**
   * An Active scheme's figures at maturity, as closing reckons them, once every installment
   * still to pay is paid on time: the rupees paid in by then, the bonus, and the total paid
   * out. A weight scheme pays out its gold, valued on the closing day: it has no total.
   */
  maturity: z
    .object({ paid: z.number(), bonus: z.number(), total: z.number().optional() })
    .optional(),
});

export const memberMe = z.object({
  custname: z.string(),
  mobile: z.string(),
  points: z.object({
    balance: z.number(),
    /** Rupees. */
    value: z.number(),
    expiringIn30Days: z.number(),
    lots: z.array(z.object({ points: z.number(), expiresOn: z.string().nullable() })),
  }),
  /** The customer's tier, their 12 months' spend and what the next tier takes; once tiers are set. */
  tier: tierStanding.optional(),
  schemes: z.array(memberHomeScheme),
  consents: consentState,
});
export const memberMeResponse = dataResponse(memberMe);

export const MEMBER_POINTS_KINDS = [
  'Sale',
  'Return',
  'Redemption',
  'Expiry',
  'Adjustment',
] as const;

export const memberPointsQuery = z.object({
  page: z.coerce
    .number({ error: 'The page must be a whole number from 1.' })
    .int({ error: 'The page must be a whole number from 1.' })
    .min(1, { error: 'The page must be a whole number from 1.' })
    .max(100_000, { error: 'The page must be a whole number from 1.' })
    .default(1),
});
export const memberPointsRow = z.object({
  date: z.string(),
  kind: z.enum(MEMBER_POINTS_KINDS),
  /** Signed: a credit positive, a debit negative. */
  points: z.number(),
  /** The balance after this row. */
  balance: z.number(),
  /** The sale's or return's invoice, when the row came from the counter's billing. */
  invoiceNo: z.string().nullable(),
  branch: z.string(),
});
export const memberPointsResponse = dataResponse(z.array(memberPointsRow)).extend({
  total: z.number(),
});

export const memberSchemeParams = z.object({
  schemeid: z.coerce
    .number({ error: 'Scheme ID must be a whole number.' })
    .int({ error: 'Scheme ID must be a whole number.' })
    .min(1, { error: 'Scheme ID must be a whole number.' })
    .max(2_147_483_647, { error: 'Scheme ID must be a whole number.' }),
});
export const memberPassbookRow = z.object({
  no: z.number(),
  date: z.string(),
  amount: z.number(),
  mode: z.enum(RECORDED_MODES),
  receiptNo: z.string(),
  /** The month (YYYY-MM) it is for. */
  forMonth: z.string(),
  /** Paid online: the gateway's payment id (`pay_…`). */
  paymentId: z.string().optional(),
  /** A weight scheme's installment: that day's 22K rate (rupees a gram) and the gold it bought. */
  rate: z.number().optional(),
  grams: z.number().optional(),
});
export const memberPassbookResponse = dataResponse(
  z.object({ scheme: memberScheme, rows: z.array(memberPassbookRow) }),
);

export const memberConsentRequest = z.object({
  purpose: consentPurpose,
  granted: z.boolean({ error: 'Choose yes or no.' }),
});
export const memberConsentResponse = dataResponse(consentState);

export const memberPayResponse = dataResponse(
  z.object({
    orderId: z.string(),
    amount: z.number(),
    currency: z.string(),
    keyId: z.string(),
    /** The gateway's checkout script, which the customer's page loads to take the payment. */
    checkoutUrl: z.string(),
  }),
);

const razorpayId = (field: string) =>
  z
    .string({ error: `${fieldName(field)} is required.` })
    .regex(/^[A-Za-z0-9_]{1,64}$/, { error: `${fieldName(field)} is not a Razorpay id.` });

export const memberPaymentVerifyRequest = z.object({
  razorpay_order_id: razorpayId('razorpay_order_id'),
  razorpay_payment_id: razorpayId('razorpay_payment_id'),
  razorpay_signature: z
    .string({ error: "The payment's signature is required." })
    .regex(/^[0-9a-f]{64}$/, {
      error: "The payment's signature must be 64 hexadecimal characters.",
    }),
});
/**
 * The installment's receipt; none when the payment was for a month already paid (refunded), or
 * while it is being checked (`checking`: its amount is not the installment's, or the gateway has
 * not confirmed it yet): the shop records or refunds it.
 */
export const memberPaymentVerifyResponse = dataResponse(
  z.object({
    receipt: installmentReceipt.nullable(),
    overpayment: z.boolean(),
    checking: z.boolean(),
  }),
);

export const razorpayWebhookResponse = z.object({ success: z.boolean() });
