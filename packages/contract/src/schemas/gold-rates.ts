import { z } from 'zod';
import { formatRupees, formatSlashDate } from '../format.js';
import { MESSAGES } from '../messages.js';
import {
  dataResponse,
  fromNotAfterTo,
  fromNotAfterToRule,
  isoDate,
  optionalIsoDate,
} from './common.js';

/** The most days one history request covers: a year and a day, so a whole year fits. */
export const GOLD_RATE_HISTORY_MAX_DAYS = 366;

/** Far above any rupees-per-gram rate gold has had, and still fits integer paise. */
const MAX_RATE_RUPEES = 1_000_000;

/** Rupees per gram with at most 2 decimals (whole paise), above zero. */
const ratePerGram = (field: string) =>
  z
    .number({ error: `${field} must be a number of rupees per gram.` })
    .positive({ error: `${field} must be more than zero.` })
    .max(MAX_RATE_RUPEES, { error: `${field} must be at most ${MAX_RATE_RUPEES} rupees per gram.` })
    // Above zero yet under a paisa (0.000001) is a fraction of a paisa too.
    .refine(
      (value) =>
        Math.round(value * 100) >= 1 && Math.abs(Math.round(value * 100) - value * 100) < 1e-6,
      {
        error: `${field} can have at most 2 decimals (whole paise).`,
      },
    );

/**
 * A rate this far (in per cent) from the last one entered in the month before is taken for a
 * slip of the hand (a digit too many or too few) until staff confirm it: every weight
 * installment of the day buys gold at it. With no rate in that month (the first rate, or one
 * after a gap) it is checked against a band of rupees a gram instead: 22K gold has not been
 * below ₹2,000 a gram since 2011 and was near ₹12,000 in 2025, so the band catches a slip of a
 * digit or of the decimal point either way (₹790.40 or ₹79,040 for ₹7,904) and leaves years of
 * room for the market; 24K is the same band over 91.6% (22K is 22/24 gold).
 */
export const GOLD_RATE_CHECK = {
  maxChangePercent: 20,
  lookBackDays: 31,
  band22k: { min: 2000, max: 50_000 },
  band24k: { min: 2200, max: 55_000 },
} as const;

/**
 * The `code` of the server's 409 for a rate that needs confirming: the screen asks staff, then
 * sends the same rate again with `confirmed: true`.
 */
export const GOLD_RATE_UNUSUAL = 'GOLD_RATE_UNUSUAL';

/** How far `next` is from `last`, in whole per cent (rounded away from zero). */
const rateChangePercent = (last: number, next: number) =>
  Math.sign(next - last) * Math.ceil((Math.abs(next - last) * 100) / last);

/**
 * Why each of a day's two rates needs confirming against the last rate entered in the month
 * before it, or with none, against the usual band (a sentence per rate, as the server refuses
 * it and the screen asks): none when both are near.
 */
export function ratesFarFromLast(
  rates: { rate22k: number; rate24k: number },
  last: { date: string; rate22k: number; rate24k: number } | undefined,
): string[] {
  if (!last)
    return (
      [
        ['22K', rates.rate22k, GOLD_RATE_CHECK.band22k],
        ['24K', rates.rate24k, GOLD_RATE_CHECK.band24k],
      ] as const
    )
      .filter(([, rate, band]) => rate < band.min || rate > band.max)
      .map(([carat, rate, band]) =>
        MESSAGES.goldRateOutsideBand(
          carat,
          formatRupees(rate),
          formatRupees(band.min),
          formatRupees(band.max),
          GOLD_RATE_CHECK.lookBackDays,
        ),
      );
  return (
    [
      ['22K', rates.rate22k, last.rate22k],
      ['24K', rates.rate24k, last.rate24k],
    ] as const
  )
    .filter(
      ([, next, before]) =>
        Math.abs(rateChangePercent(before, next)) > GOLD_RATE_CHECK.maxChangePercent,
    )
    .map(([carat, next, before]) =>
      MESSAGES.goldRateFarFromLast(
        carat,
        formatRupees(next),
        rateChangePercent(before, next),
        formatRupees(before),
        formatSlashDate(last.date),
      ),
    );
}

/**
 * The day's rate as the shop enters it: one per date, posting a date again corrects it.
 * `confirmed`: staff saw that the rate is far from the last one and meant it.
 */
export const goldRateSaveRequest = z
  .object({
    date: isoDate('date'),
    rate22k: ratePerGram('22K rate'),
    rate24k: ratePerGram('24K rate'),
    confirmed: z.boolean({ error: 'Confirm yes or no.' }).optional(),
  })
  // 22K gold is 91.6% gold: its rate below 24K's is how the two are never swapped.
  .refine((rates) => rates.rate22k < rates.rate24k, {
    path: ['rate22k'],
    error: '22K rate must be less than the 24K rate.',
  });
export type GoldRateSaveRequest = z.input<typeof goldRateSaveRequest>;

/** A day's rate: rupees per gram, with who entered it last and when. */
export const goldRate = z.object({
  date: z.string(),
  rate22k: z.number(),
  rate24k: z.number(),
  enteredBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type GoldRate = z.infer<typeof goldRate>;

export const goldRatesQuery = z
  .object({ from: optionalIsoDate('from'), to: optionalIsoDate('to') })
  .refine(fromNotAfterTo, fromNotAfterToRule);
export type GoldRatesQuery = z.input<typeof goldRatesQuery>;

export const goldRateSaveResponse = dataResponse(goldRate.extend({ corrected: z.boolean() }));
export const goldRatesResponse = dataResponse(z.array(goldRate));
/** Today's rate, or null when none was entered yet today. */
export const goldRateTodayResponse = dataResponse(goldRate.nullable());
