import { z } from 'zod';
import { isIsoDate } from '../dates.js';
import { fieldName } from '../refusals.js';
import { readTypedNumber } from '../typed-numbers.js';

/** Every response: `{ success, message?, data? }`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), message: z.string().optional(), data: data.optional() });

export const messageResponse = z.object({ success: z.boolean(), message: z.string().optional() });
export type MessageResponse = z.infer<typeof messageResponse>;

/**
 * A successful answer carrying `data`. Routes declare it as their 200 response: the server
 * sends exactly these fields (anything else a service returns is left out), the API docs show
 * it, and the web app reads its type from it.
 */
export const dataResponse = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), message: z.string().optional(), data });

/**
 * False for text with a NUL character or an unpaired UTF-16 surrogate (half an emoji): JSON can
 * carry both, but PostgreSQL refuses NUL in text and jsonb, and would store the half emoji as
 * U+FFFD, the replacement character: not what was typed.
 */
export const isStorableText = (value: string) =>
  !value.includes('\u0000') && !/\p{Cs}/u.test(value);

/** Text the API takes: a string PostgreSQL can store exactly (the other rules chain on). */
export const storableText = (field: string, typeError?: string) =>
  z.string(typeError === undefined ? undefined : { error: typeError }).refine(isStorableText, {
    error: `${fieldName(field)} contains a character that cannot be saved.`,
    abort: true,
  });

/**
 * A number that may also arrive as the text staff typed ("5,000", "2,00,000", "₹ 7,904"), read
 * as every screen reads it; text that is no number, and anything else, fails with `rule`.
 */
export const numberOrTypedText = (rule: string) =>
  z.union(
    [
      z.number({ error: rule }),
      z.string({ error: rule }).transform((typed, context) => {
        const value = readTypedNumber(typed);
        if (Number.isNaN(value)) context.addIssue({ code: 'custom', message: rule });
        return value;
      }),
    ],
    { error: rule },
  );

/** A `YYYY-MM-DD` calendar date that exists. */
export const isoDate = (field: string) =>
  z
    .string({ error: `${fieldName(field)} is required.` })
    .refine(isIsoDate, { error: `${fieldName(field)} must be a real date in YYYY-MM-DD format.` });

/** A query string's parameter left empty is one not given. */
export const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** An optional `YYYY-MM-DD` date of a query string; left empty, it is not given. */
export const optionalIsoDate = (field: string) =>
  z.preprocess(emptyToUndefined, isoDate(field).optional());

/** A list's filter by a customer's mobile number; left empty, any customer. */
export const optionalMobileParam = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d{10}$/, { error: 'Mobile no. must be 10 digits.' })
    .optional(),
);

/**
 * The page of a paged list, 1 when not given. Pages end at `maxPages`: further back, the
 * filters narrow the list instead (`older` names what the list holds).
 */
export const pageParam = (maxPages: number, older: string) => {
  const rule = 'The page must be a whole number from 1.';
  return z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: rule })
      .int({ error: rule })
      .min(1, { error: rule })
      .max(maxPages, {
        error: `The page must be at most ${maxPages}; narrow the filters to see older ${older}.`,
      })
      .default(1),
  );
};

/** A query's date range, either end optional: `from` may not come after `to`. */
export const fromNotAfterTo = (query: { from?: string | undefined; to?: string | undefined }) =>
  !query.from || !query.to || query.from <= query.to;
export const fromNotAfterToRule = {
  error: 'The from date must not be after the to date.',
  path: ['to'],
};

/** A required text field with a maximum length, trimmed. */
export const requiredText = (field: string, max: number) =>
  storableText(field, `${fieldName(field)} is required.`)
    .trim()
    .min(1, { error: `${fieldName(field)} is required.` })
    .max(max, { error: `${fieldName(field)} must be at most ${max} characters.` });
