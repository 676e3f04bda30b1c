import { z } from 'zod';
import { isIsoDate } from '../dates.js';

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
    error: `${field} contains a character that cannot be saved.`,
    abort: true,
  });

/** A `YYYY-MM-DD` calendar date that exists. */
export const isoDate = (field: string) =>
  z
    .string({ error: `${field} is required.` })
    .refine(isIsoDate, { error: `${field} must be a real date in YYYY-MM-DD format.` });

/** A required text field with a maximum length, trimmed. */
export const requiredText = (field: string, max: number) =>
  storableText(field, `${field} is required.`)
    .trim()
    .min(1, { error: `${field} is required.` })
    .max(max, { error: `${field} must be at most ${max} characters.` });
