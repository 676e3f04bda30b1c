import { z } from 'zod';
import { isIsoDate } from '../dates.js';

/** Every response: `{ success, message?, data? }`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), message: z.string().optional(), data: data.optional() });

export const messageResponse = z.object({ success: z.boolean(), message: z.string().optional() });
export type MessageResponse = z.infer<typeof messageResponse>;

/** A `YYYY-MM-DD` calendar date that exists. */
export const isoDate = (field: string) =>
  z
    .string({ error: `${field} is required.` })
    .refine(isIsoDate, { error: `${field} must be a real date in YYYY-MM-DD format.` });

/** A required text field with a maximum length, trimmed. */
export const requiredText = (field: string, max: number) =>
  z
    .string({ error: `${field} is required.` })
    .trim()
    .min(1, { error: `${field} is required.` })
    .max(max, { error: `${field} must be at most ${max} characters.` });
