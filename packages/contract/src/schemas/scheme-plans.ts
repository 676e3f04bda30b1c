import { z } from 'zod';
import { fieldName } from '../refusals.js';
import { DEFAULT_GRACE_DAYS, LIMITS } from '../limits.js';
import { dataResponse, storableText } from './common.js';

/** The plan the standard scheme (STD) is: value, its installments and bonus as configured. */
export const STD_PLAN_CODE = 'STD';

export const SCHEME_PLAN_KINDS = ['value', 'weight'] as const;
export type SchemePlanKind = (typeof SCHEME_PLAN_KINDS)[number];

/** Installments a plan may have: monthly, so a scheme ends within 365 days. */
export const PLAN_INSTALLMENTS_MAX = 11;

/**
 * How the rules name each field of a plan: every refusal starts with it, so a screen can put
 * the server's words beside the field they are about.
 */
export const SCHEME_PLAN_FIELDS = {
  code: 'Code',
  name: 'Name',
  kind: 'Kind',
  installments: 'Installments',
  minAmount: 'Minimum installment',
  bonusPercent: 'Bonus percent',
  graceDays: 'Grace days',
  redeemWithinDays: 'Days to redeem',
  active: 'Offered to customers',
} as const;
const f = SCHEME_PLAN_FIELDS;

const wholeNumber = (field: string, min: number, max: number) => {
  const rule = `${fieldName(field)} must be a whole number from ${min} to ${max.toLocaleString('en-IN')}.`;
  return z.number({ error: rule }).int({ error: rule }).min(min, { error: rule }).max(max, {
    error: rule,
  });
};

/** A plan as the owner saves it: posting an existing code changes that plan. */
export const schemePlanSaveRequest = z.object({
  code: z
    .string({ error: `${f.code} is required.` })
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(
      z.string().regex(/^[A-Z0-9]{2,10}$/, {
        error: `${f.code} must be 2 to 10 letters or digits.`,
      }),
    ),
  name: storableText(f.name, `${f.name} is required.`)
    .trim()
    .min(1, { error: `${f.name} is required.` })
    .max(60, { error: `${f.name} must be at most 60 characters.` }),
  kind: z.enum(SCHEME_PLAN_KINDS, { error: `${f.kind} must be value or weight.` }),
  installments: wholeNumber(f.installments, 1, PLAN_INSTALLMENTS_MAX),
  minAmount: wholeNumber(f.minAmount, 1, LIMITS.schemeAmountMax),
  bonusPercent: wholeNumber(f.bonusPercent, 0, 1000),
  graceDays: wholeNumber(f.graceDays, 0, 30).default(DEFAULT_GRACE_DAYS),
  redeemWithinDays: wholeNumber(f.redeemWithinDays, 1, 365).default(60),
  active: z
    .boolean({ error: 'Whether the plan is offered to customers must be yes or no.' })
    .default(true),
});
export type SchemePlanSaveRequest = z.input<typeof schemePlanSaveRequest>;

export const schemePlan = z.object({
  code: z.string(),
  name: z.string(),
  kind: z.enum(SCHEME_PLAN_KINDS),
  installments: z.number(),
  minAmount: z.number(),
  bonusPercent: z.number(),
  graceDays: z.number(),
  redeemWithinDays: z.number(),
  active: z.boolean(),
  /** Schemes started on the plan: its terms can no longer change. */
  schemes: z.number(),
});
export type SchemePlan = z.infer<typeof schemePlan>;

export const schemePlansResponse = dataResponse(z.array(schemePlan));
export const schemePlanSaveResponse = dataResponse(schemePlan);

/** Milligrams as grams with 3 decimals: 10250 → "10.250". */
export const formatGrams = (mg: number) =>
  `${Math.floor(mg / 1000)}.${String(mg % 1000).padStart(3, '0')}`;

/**
 * The gold an amount buys at a rate: milligrams = floor(rupees × 1000 / rupees-per-gram), in
 * integers with the rate in paise (rupees × 100 000 / paise), so no rate rounds a milligram.
 */
export const milligramsFor = (rupees: number, ratePaise: number) =>
  Math.floor((rupees * 100_000) / ratePaise);

/** What milligrams are worth at a rate, in whole rupees (paise dropped). */
export const valueOfMilligrams = (mg: number, ratePaise: number) =>
  Math.floor((mg * ratePaise) / 100_000);
