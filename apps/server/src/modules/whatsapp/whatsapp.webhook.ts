import { z } from 'zod';

/**
 * What Kanak reads of Meta's webhook events (the `messages` field): each change's statuses of
 * messages sent, and the messages customers sent. Anything else in them is let be.
 */
const status = z.looseObject({
  /** The message's id, as the send answered it (`wamid.…`). */
  id: z.string().min(1).max(200),
  status: z.string().max(30),
  /** Seconds since 1970, as text. */
  timestamp: z.string().regex(/^\d{9,11}$/),
  errors: z
    .array(
      z.looseObject({
        code: z.number().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.looseObject({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

const message = z.looseObject({
  /** The customer's WhatsApp number, country code first (`919876543210`). */
  from: z.string().max(30).optional(),
  type: z.string().max(30).optional(),
  text: z.looseObject({ body: z.string() }).optional(),
  button: z.looseObject({ payload: z.string().optional(), text: z.string().optional() }).optional(),
  interactive: z
    .looseObject({
      button_reply: z
        .looseObject({ id: z.string().optional(), title: z.string().optional() })
        .optional(),
    })
    .optional(),
});

export const webhookEvent = z.looseObject({
  object: z.string().optional(),
  entry: z.array(
    z.looseObject({
      changes: z.array(
        z.looseObject({
          field: z.string().optional(),
          value: z.looseObject({
            statuses: z.array(status).optional(),
            messages: z.array(message).optional(),
          }),
        }),
      ),
    }),
  ),
});
export type WebhookEvent = z.infer<typeof webhookEvent>;
