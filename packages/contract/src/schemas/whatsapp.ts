import { z } from 'zod';
import { countOf } from '../format.js';
import { dataResponse } from './common.js';

/** What Meta bills a template as: a campaign's, a notice's, a sign-in code's. */
export const WHATSAPP_TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type WhatsAppTemplateCategory = (typeof WHATSAPP_TEMPLATE_CATEGORIES)[number];

/**
 * One of the official panel's message templates as Meta holds it: `parameters` is how many
 * distinct `{{n}}` its body has, the figures a notice must fill in.
 */
export const whatsappTemplate = z.object({
  name: z.string(),
  language: z.string(),
  category: z.enum(WHATSAPP_TEMPLATE_CATEGORIES),
  /** Meta's word: APPROVED, PENDING, REJECTED, PAUSED, DISABLED… */
  status: z.string(),
  parameters: z.number().int().nonnegative(),
});
export type WhatsAppTemplate = z.infer<typeof whatsappTemplate>;

/** The sync takes nothing: what it reads is the saved official panel's. */
export const whatsappTemplatesSyncRequest = z.object({}).strict();

/** `GET /api/whatsapp/templates`, and the sync's answer: the templates held, by name. */
export const whatsappTemplatesResponse = dataResponse(z.array(whatsappTemplate));

/** Meta's handshake when the webhook is added in the app's dashboard. */
const handshakeField = (what: string, max: number) =>
  z
    .string({ error: `The handshake's ${what} must be text.` })
    .max(max, { error: `The handshake's ${what} must be at most ${max} characters.` })
    .optional();
export const whatsappWebhookQuery = z.object({
  'hub.mode': handshakeField('mode', 50),
  'hub.verify_token': handshakeField('verify token', 200),
  'hub.challenge': handshakeField('challenge', 200),
});

/** The handshake's answer: the challenge, as plain text. */
export const whatsappWebhookChallenge = z
  .string()
  .describe('The hub.challenge Meta sent, as text/plain, when the verify token matches.');

/** An event taken (or, unsigned, refused). */
export const whatsappWebhookResponse = z.object({ success: z.boolean() });

/** The server's answers about the official panel (Panel 4) and its templates. */
export const WHATSAPP_MESSAGES = {
  notSetUp:
    'Set up Panel 4, WhatsApp Business (official), on Message Configuration first: its templates come from there.',
  templatesSynced: (count: number) =>
    `${countOf(count, 'template', 'templates')} read from WhatsApp Business.`,
  tokenInvalid:
    'WhatsApp Business refused the access token: it has expired or was revoked. Enter a new one for Panel 4 on Message Configuration.',
  busy: 'WhatsApp Business asked for fewer requests and is still busy: nothing was changed. Try again in a few minutes.',
  refused: (reason: string) => `WhatsApp Business refused the request: ${reason}`,
  unreachable:
    'WhatsApp Business could not be reached: check the internet connection and try again.',
  unreadable: 'WhatsApp Business answered in a way Kanak cannot read: nothing was changed.',
  tooMany: (limit: number) =>
    `WhatsApp Business listed more than ${limit.toLocaleString('en-IN')} templates: nothing was changed.`,
  secretsFirst: 'Enter the access token and the app secret: Panel 4 has none saved to keep.',
  sendingNotReady:
    'Sending through Panel 4, WhatsApp Business (official), is not ready yet: notices to customers wait until it is.',
  /** A message WhatsApp could not deliver: Meta's reason, in the Delivery Log. */
  notDelivered: (reason: string, code: number | null) =>
    `WhatsApp could not deliver it${reason ? `: ${reason.slice(0, 300)}` : '.'}${code === null ? '' : ` (#${code})`}`,
  webhookTokenWrong: 'The verify token does not match the one Message Configuration shows.',
  webhookUnsigned: 'The signature does not match: nothing was done.',
  webhookUnreadable: 'The event is not one Kanak can read: nothing was done.',
} as const;
