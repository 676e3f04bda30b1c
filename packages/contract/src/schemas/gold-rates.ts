import { z } from 'zod';
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

/** The day's rate as the shop enters it: one per date, posting a date again corrects it. */
export const goldRateSaveRequest = z.object({
  date: isoDate('date'),
  rate22k: ratePerGram('22K rate'),
  rate24k: ratePerGram('24K rate'),
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
