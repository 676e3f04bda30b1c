import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { dataResponse, isoDate, requiredText } from './common.js';
import { custid } from './data-rights.js';
import { rupees } from './pos.js';
import { tierStanding } from './tier-standing.js';

/**
 * Tiers: the owner sets them by the eligible spend (net of returns) of the last 12 months and
 * an earning percentage of the base rate (100 = the base rate); a customer's tier rises with
 * the sale that crosses a threshold and falls only on its anniversary, or never.
 */
export const TIER_LIMITS = {
  tiersMax: 10,
  codeMaxLength: 12,
  nameMaxLength: 40,
  earnPercentMax: 1000,
  /** ₹100 crore of spend: a threshold beyond any customer's year. */
  minSpendMaxPaise: 10_000_000_000,
} as const;

export const TIER_DOWNGRADES = ['anniversary', 'never'] as const;
export type TierDowngrade = (typeof TIER_DOWNGRADES)[number];

const earnPercentRule = `Earning % must be a whole number from 1 to ${TIER_LIMITS.earnPercentMax}.`;
const codeRule = `A tier's code must be 1 to ${TIER_LIMITS.codeMaxLength} letters, digits or _.`;
const tierCode = z
  .string({ error: codeRule })
  .trim()
  .regex(new RegExp(`^[A-Za-z0-9_]{1,${TIER_LIMITS.codeMaxLength}}$`), { error: codeRule })
  .transform((code) => code.toUpperCase());

export const tierForm = z.object({
  code: tierCode,
  name: requiredText("A tier's name", TIER_LIMITS.nameMaxLength),
  minSpend: rupees('Minimum spend', { maxPaise: TIER_LIMITS.minSpendMaxPaise }),
  earnPercent: z
    .number({ error: earnPercentRule })
    .int({ error: earnPercentRule })
    .min(1, { error: earnPercentRule })
    .max(TIER_LIMITS.earnPercentMax, { error: earnPercentRule }),
});

export const tiersForm = z
  .object({
    tiers: z
      .array(tierForm, { error: 'The tiers must be a list of tiers.' })
      .max(TIER_LIMITS.tiersMax, { error: `At most ${TIER_LIMITS.tiersMax} tiers.` }),
    downgrade: z.enum(TIER_DOWNGRADES, {
      error: 'Choose when a tier falls: on its anniversary, or never.',
    }),
  })
  .refine((form) => new Set(form.tiers.map((t) => t.code)).size === form.tiers.length, {
    error: 'Each tier must have its own code.',
    path: ['tiers'],
  })
  .refine((form) => new Set(form.tiers.map((t) => t.minSpend)).size === form.tiers.length, {
    error: 'Each tier must have its own minimum spend.',
    path: ['tiers'],
  })
  // Lowest first, so the list reads as the ladder it is.
  .transform((form) => ({
    ...form,
    tiers: [...form.tiers].sort((a, b) => a.minSpend - b.minSpend),
  }));
export type TiersForm = z.output<typeof tiersForm>;
export type TiersFormInput = z.input<typeof tiersForm>;

const tier = z.object({
  code: z.string(),
  name: z.string(),
  /** Rupees of eligible spend over the last 12 months. */
  minSpend: z.number(),
  earnPercent: z.number(),
});
export type Tier = z.infer<typeof tier>;
export const tiersSettings = z.object({
  tiers: z.array(tier),
  downgrade: z.enum(TIER_DOWNGRADES),
});
export type TiersSettings = z.infer<typeof tiersSettings>;
export const tiersResponse = dataResponse(tiersSettings);

export const customerTierRequest = z
  .object({
    custid,
    /** A tier's code; null ends a tier set by hand (no date needed then). */
    tier: tierCode.nullable(),
    until: isoDate('The date the tier lasts until').optional(),
  })
  .refine((request) => request.tier === null || request.until !== undefined, {
    error: 'Choose the date the tier lasts until.',
    path: ['until'],
  });
export type CustomerTierRequest = z.output<typeof customerTierRequest>;
export const customerTierResponse = dataResponse(
  tierStanding.extend({
    custid: z.number(),
    earnedTier: z.string().nullable(),
    manualTier: z.string().nullable(),
    manualUntil: z.string().nullable(),
  }),
);

export const TIER_MESSAGES = {
  saved: 'Tiers saved; sales earn by them from now on.',
  manualSet: 'Tier set.',
  unknownTier: (code: string) => `No tier has the code ${code}.`,
  untilInPast: 'The date the tier lasts until must not be before today.',
  /** A tier customers hold keeps its code: removing it would drop them without a word. */
  tierHeld: (code: string, customers: number) =>
    `${customers} ${customers === 1 ? 'customer holds' : 'customers hold'} the tier ${code}: keep it (its name, minimum spend and percentage may change).`,
  customerNotFound: MESSAGES.customerNotFound,
} as const;
