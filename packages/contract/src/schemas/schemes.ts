import { z } from 'zod';
import { fieldName } from '../refusals.js';
import { addDays } from '../dates.js';
import { LIMITS, PAN_REQUIRED_FROM } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { PAN_PATTERN } from '../validation.js';
import { branch } from './branches.js';
import {
  dataResponse,
  emptyToUndefined,
  isoDate,
  numberOrTypedText,
  storableText,
} from './common.js';
import { mobileNumber } from './customers.js';
import { optionalPersonName } from './names.js';
import { SCHEME_PLAN_KINDS } from './scheme-plans.js';

/**
 * A scheme's status, one of four codes (on the wire `matyn`): n Inactive, a Active, m Completed,
 * x cancelled (kept, hidden).
 */
export const SCHEME_STATUS = {
  inactive: 'n',
  active: 'a',
  completed: 'm',
  cancelled: 'x',
} as const;
export type SchemeStatus = (typeof SCHEME_STATUS)[keyof typeof SCHEME_STATUS];

/** How the screens name a status; 'n', empty or missing all read Inactive. */
export function schemeStatusLabel(
  status: string | null | undefined,
): 'Inactive' | 'Active' | 'Completed' {
  if (status === SCHEME_STATUS.active) return 'Active';
  if (status === SCHEME_STATUS.completed) return 'Completed';
  return 'Inactive';
}
export const isInactive = (status: string | null | undefined) =>
  schemeStatusLabel(status) === 'Inactive';

/** The summary's status filter: id and label; the label is what the API receives. */
export const SUMMARY_STATUS_OPTIONS = [
  { id: 0, label: 'All' },
  { id: 1, label: 'Active' },
  { id: 2, label: 'Inactive' },
  { id: 3, label: 'Matured' },
] as const;
export type SummaryStatusLabel = (typeof SUMMARY_STATUS_OPTIONS)[number]['label'];

export const PAYMENT_MODES = ['cash', 'upi', 'card', 'bank', 'cheque'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];
/** How an installment was paid: a counter's mode, or online by the customer (never chosen by staff). */
export const INSTALLMENT_MODES = [...PAYMENT_MODES, 'online'] as const;
export type InstallmentMode = (typeof INSTALLMENT_MODES)[number];
/**
 * An installment brought in from other software: paid there, before Kanak. It counts towards its
 * scheme's installments, never towards a day's collections or the books sent to Tally.
 */
export const IMPORTED_MODE = 'imported';
/** Every mode an installment row may carry: statements and passbooks show each. */
export const RECORDED_MODES = [...INSTALLMENT_MODES, IMPORTED_MODE] as const;
export type RecordedMode = (typeof RECORDED_MODES)[number];
export const PAYMENT_MODE_LABELS: Record<RecordedMode, string> = {
  cash: 'Cash',
  upi: 'UPI',
  card: 'Card',
  bank: 'Bank transfer',
  cheque: 'Cheque',
  online: 'Online',
  imported: 'Imported',
};

/** Scheme terms when not configured: 11 monthly installments, bonus of one installment. */
export const SCHEME_DEFAULTS = { installments: 11, bonusPercent: 100 } as const;

/**
 * What staff date a scheme's start, its activation or an installment: never after today, and
 * without the owner's say no further back than LIMITS.backdateDays (a slip from last week, a
 * day the counter was offline). Only the owner dates one further back, giving a reason that
 * the audit keeps: an entry dated weeks back would otherwise pass unseen by the day's cash book.
 */
export const earliestDateWithoutReason = (today: string) => addDays(today, -LIMITS.backdateDays);
export const needsBackdateReason = (date: string, today: string) =>
  date < earliestDateWithoutReason(today);
/** What is being dated, as the refusal names it. */
export const BACKDATED_ENTRIES = {
  start: "a scheme's start",
  activation: 'an activation',
  installment: 'an installment',
} as const;
export type BackdatedEntry = keyof typeof BACKDATED_ENTRIES;

/** The owner's reason for dating an entry further back than staff may; empty is none. */
const backdateReason = z.preprocess(
  emptyToUndefined,
  storableText('Reason', MESSAGES.backdateReasonLength)
    .trim()
    .min(LIMITS.backdateReasonMinLength, { error: MESSAGES.backdateReasonLength })
    .max(LIMITS.narrationMaxLength, { error: MESSAGES.backdateReasonLength })
    .optional(),
);

export const needsPan = (amount: number) => amount >= PAN_REQUIRED_FROM;
export const isValidPan = (pan: string | null | undefined) => PAN_PATTERN.test(pan ?? '');

/** An id arriving as a number or as digits in text. */
const id = (field: string, missing = `${fieldName(field)} is required.`) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .min(1, { error: missing, abort: true })
          .regex(/^\d+$/, { error: `${fieldName(field)} must be a number.` }),
      ],
      { error: missing },
    )
    .transform(Number)
    .pipe(
      z
        .number()
        .int({ error: `${fieldName(field)} must be a whole number.` })
        .positive({ error: `${fieldName(field)} must be a positive number.` })
        .max(2_147_483_647, { error: `${fieldName(field)} is too large.` }),
    );

const amountRule = `Amount must be a whole number of rupees from 1 to ${LIMITS.schemeAmountMax.toLocaleString('en-IN')}.`;
const rupees = numberOrTypedText(amountRule).refine(
  (n) => Number.isInteger(n) && n >= 1 && n <= LIMITS.schemeAmountMax,
  {
    error: amountRule,
  },
);

export const schemeCustomerRequest = z.object({ custid: id('custid') });
export const schemeIdRequest = z.object({ schemeid: id('Scheme ID', MESSAGES.schemeIdRequired) });

export const generateSchemeRequest = z.object({
  custid: id('custid'),
  mobileno: mobileNumber,
  custname: optionalPersonName('Name'),
  startdt: isoDate('Start date'),
  amount: rupees,
  /** The plan's code; without it, the standard scheme (`STD`). */
  plan: storableText('plan', 'Plan must be a plan code.')
    .trim()
    .toUpperCase()
    .max(10, { error: 'Plan must be a plan code.' })
    .optional(),
  backdateReason,
});
export type GenerateSchemeRequest = z.input<typeof generateSchemeRequest>;

export const updatePanRequest = z.object({
  custid: id('custid'),
  pan: z
    .string({ error: MESSAGES.panFormat })
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value) => PAN_PATTERN.test(value), { error: MESSAGES.panFormat }),
});

const payment = {
  schemeid: id('Scheme ID'),
  date: isoDate('Date'),
  mode: z.enum(PAYMENT_MODES, { error: 'Mode must be cash, upi, card, bank or cheque.' }),
  reference: storableText('Reference')
    .trim()
    .max(100, { error: 'Reference must be at most 100 characters.' })
    .default(''),
  backdateReason,
};
export const activateSchemeRequest = z.object(payment);
export const addInstallmentRequest = z.object({
  ...payment,
  narration: storableText('Narration')
    .trim()
    .max(LIMITS.narrationMaxLength, {
      error: `Narration must be at most ${LIMITS.narrationMaxLength} characters.`,
    })
    .default(''),
  /**
   * At the customer's request, the installment for the month after the payment date's month,
   * taken once that month is paid; without it, the payment date's own month.
   */
  advance: z.boolean({ error: 'Paying in advance must be yes or no.' }).default(false),
});
export type PaymentRequest = z.input<typeof addInstallmentRequest>;

const pageRule = `The page must be a whole number from 1 to ${LIMITS.summaryMaxPages}.`;
const pageSizeRule = `Rows per page must be a whole number from 1 to ${LIMITS.summaryPageSizeMax}.`;

/**
 * The summary's filter. With `page` or `pageSize` (either may be left out: page 1, 100 rows)
 * the answer is that page of the rows, with the count and amount of the whole filter;
 * without both it is every row, as the screen's original call.
 */
export const schemeSummaryRequest = z.object({
  selected: z.enum(['All', 'Active', 'Inactive', 'Matured'], {
    error: 'Status must be All, Active, Inactive or Matured.',
  }),
  formData: z.object({
    mobileno: z
      .string()
      .trim()
      .regex(/^(\d{10})?$/, { error: MESSAGES.mobileLength })
      .default(''),
    datefrom: isoDate('From'),
    dateto: isoDate('To'),
  }),
  page: z
    .number({ error: pageRule })
    .int({ error: pageRule })
    .min(1, { error: pageRule })
    .max(LIMITS.summaryMaxPages, { error: pageRule })
    .optional(),
  pageSize: z
    .number({ error: pageSizeRule })
    .int({ error: pageSizeRule })
    .min(1, { error: pageSizeRule })
    .max(LIMITS.summaryPageSizeMax, { error: pageSizeRule })
    .optional(),
});

/** A scheme as listed on Scheme Initiation. */
export const schemeRecord = z.object({
  schemeid: z.number(),
  startdt: z.string(),
  matdt: z.string().nullable(),
  amount: z.number(),
  /** The scheme's status (SCHEME_STATUS), under the wire's own name. */
  matyn: z.string(),
  installments: z.number(),
  paid: z.number(),
  /** The plan's code and kind; a weight scheme's gold so far, in milligrams. */
  plan: z.string().optional(),
  kind: z.enum(SCHEME_PLAN_KINDS).optional(),
  mg: z.number().optional(),
  /** A plan's last day to redeem with the bonus. */
  redeemBy: z.string().optional(),
});
export type SchemeRecord = z.infer<typeof schemeRecord>;
export const schemesResponse = dataResponse(z.array(schemeRecord));

export const generateSchemeResponse = dataResponse(z.object({ schemeid: z.number() }));
export const verifyPanResponse = dataResponse(z.object({ pan: z.string() }));

export const schemeStatementRow = z.object({
  date: z.string(),
  narration: z.string(),
  amount: z.number(),
  /**
   * An installment's receipt number as printed (`MAIN-000058`; a plain number from before
   * branches), its branch, mode and reference (null on the bonus row), to reprint it.
   */
  receiptNo: z.string().nullable().optional(),
  branch: branch.nullable().optional(),
  mode: z.enum(RECORDED_MODES).nullable().optional(),
  reference: z.string().nullable().optional(),
  /** The month (YYYY-MM) an installment is for: its date's month, or the next when in advance. */
  period: z.string().nullable().optional(),
  /** A weight scheme's row: the 22K rate (rupees a gram) and the gold, in milligrams. */
  rate22k: z.number().nullable().optional(),
  mg: z.number().nullable().optional(),
  /** Paid more than the plan's grace days after it was due: it earns no bonus. */
  late: z.boolean().optional(),
});
export type SchemeStatementRow = z.infer<typeof schemeStatementRow>;
/** The installment rows, with the scheme and its customer beside them. */
export const schemeStatementResponse = dataResponse(z.array(schemeStatementRow)).extend({
  custname: z.string(),
  mobileno: z.string(),
  scheme: schemeRecord,
});

export const schemeSummaryRow = z.object({
  schemeid: z.number(),
  custname: z.string(),
  mobileno: z.string(),
  startdt: z.string(),
  amount: z.number(),
  /** The scheme's status (SCHEME_STATUS), under the wire's own name. */
  matyn: z.string(),
});
export type SchemeSummaryRow = z.infer<typeof schemeSummaryRow>;
/**
 * No rows is `success: false` with the reason, and still an (empty) list and a total.
 * `total` is the amount of every row of the filter; a paged answer adds how many rows that is
 * (`count`) and the page it holds.
 */
export const schemeSummaryResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  data: z.array(schemeSummaryRow),
  total: z.number(),
  count: z.number().optional(),
  page: z.number().optional(),
  pageSize: z.number().optional(),
});

/** An installment's receipt, as printed. */
export const installmentReceipt = z.object({
  /** The branch's code and the number in its run: `MAIN-000058`. */
  receiptNo: z.string(),
  /** The branch that took the payment: the receipt carries its address and phone. */
  branch: branch.nullable(),
  schemeid: z.number(),
  custname: z.string(),
  mobileno: z.string(),
  date: z.string(),
  amount: z.number(),
  mode: z.enum(INSTALLMENT_MODES),
  reference: z.string(),
  installmentNo: z.number(),
  installments: z.number(),
  /** The month (YYYY-MM) the installment is for. */
  forMonth: z.string(),
  /** Rupees paid into the scheme so far, this installment included. */
  paidSoFar: z.number(),
  /** A weight scheme's installment: the day's 22K rate (rupees a gram) and the milligrams. */
  rate22k: z.number().nullable().optional(),
  mg: z.number().nullable().optional(),
  /** The shop's GSTIN when configured. */
  gstin: z.string().nullable().optional(),
});
export type InstallmentReceipt = z.infer<typeof installmentReceipt>;
export const receiptResponse = dataResponse(installmentReceipt);

/** What closing paid: the bonus and the maturity value, for the installments paid. */
export const closeSchemeResponse = dataResponse(
  z.object({
    bonus: z.number(),
    maturityValue: z.number(),
    paid: z.number(),
    /** Installments paid within the grace days: the bonus is theirs. */
    onTime: z.number().optional(),
    /**
     * A plan's last day to redeem with the bonus (maturity plus its days to redeem); closed
     * later, the bonus has lapsed.
     */
    redeemBy: z.string().optional(),
    bonusLapsed: z.boolean().optional(),
    /** A weight scheme: the gold, the bonus gold and the closing day's 22K rate. */
    mg: z.number().optional(),
    bonusMg: z.number().optional(),
    rate22k: z.number().optional(),
  }),
);
