import { z } from 'zod';
import { LIMITS } from '../limits.js';
import {
  dataResponse,
  emptyToUndefined,
  fromNotAfterTo,
  fromNotAfterToRule,
  optionalIsoDate,
  optionalMobileParam,
  pageParam,
  storableText,
} from './common.js';

/**
 * What a customer hears about on WhatsApp: their own points, schemes and receipts. Every
 * notice is of the "transactional" consent purpose; without that consent it is skipped.
 */
export const NOTICE_EVENTS = [
  'pointsEarned',
  'pointsRedeemed',
  'pointsAdjusted',
  'pointsExpiring',
  'schemeStarted',
  'installmentReceived',
  'installmentDue',
  'installmentOverdue',
  'schemeMatured',
  'schemeClosed',
  'tierUpgraded',
] as const;
export type NoticeEvent = (typeof NOTICE_EVENTS)[number];

export const NOTICE_EVENT_LABELS: Record<NoticeEvent, string> = {
  pointsEarned: 'Points earned on a sale',
  pointsRedeemed: 'Points redeemed',
  pointsAdjusted: 'Points adjusted by staff',
  pointsExpiring: 'Points expiring within 30 days (monthly)',
  schemeStarted: 'Scheme started',
  installmentReceived: 'Installment received',
  installmentDue: 'Installment due in 3 days',
  installmentOverdue: 'Installment overdue',
  schemeMatured: 'Scheme matured',
  schemeClosed: 'Scheme closed',
  tierUpgraded: 'Tier upgraded',
};

/**
 * When an event's notice may go: a receipt at once; reminders and digests only in the day's
 * window of store time (LIMITS.noticeDayStartHour to noticeDayEndHour), else they wait for it.
 */
export const NOTICE_TIMING: Record<NoticeEvent, 'now' | 'daytime'> = {
  pointsEarned: 'now',
  pointsRedeemed: 'now',
  pointsAdjusted: 'now',
  pointsExpiring: 'daytime',
  schemeStarted: 'now',
  installmentReceived: 'now',
  installmentDue: 'daytime',
  installmentOverdue: 'daytime',
  schemeMatured: 'daytime',
  schemeClosed: 'now',
  tierUpgraded: 'now',
};

/** The values a template may use, written `{name}` in its text. */
export const NOTICE_PLACEHOLDERS = [
  'name',
  'points',
  'balance',
  'value',
  'amount',
  'receipt',
  'paid',
  'total',
  'dueDate',
  'shop',
  'branch',
  'tier',
  'adjustment',
] as const;
export type NoticePlaceholder = (typeof NOTICE_PLACEHOLDERS)[number];
/** The values a notice is filled with; `adjustment` is said from `points`, never given. */
export type NoticeValues = Partial<
  Record<Exclude<NoticePlaceholder, 'adjustment'>, string | number>
>;

export const NOTICE_PLACEHOLDER_HELP: Record<NoticePlaceholder, string> = {
  name: "the customer's name",
  points: 'the points of this entry',
  balance: 'the points balance after it',
  value: 'what the points are worth in rupees',
  amount: 'the amount in rupees',
  receipt: 'the receipt number',
  paid: 'installments paid so far',
  total: 'installments in the scheme',
  dueDate: 'the due or maturity date',
  shop: "the shop's name",
  branch: 'the branch',
  tier: 'the tier reached',
  adjustment: 'the points added or deducted by staff, in words: "50 points have been added to"',
};

/**
 * The texts a shop starts with, in English; the owner may change each on Message Templates.
 * The other languages' are in DEFAULT_NOTICE_TEXTS_BY_LANGUAGE.
 */
export const DEFAULT_NOTICE_TEXTS: Record<NoticeEvent, string> = {
  pointsEarned:
    'Dear {name}, you earned {points} points on your purchase at {shop}, {branch}. Your balance is {balance} points (worth ₹{value}).',
  pointsRedeemed:
    'Dear {name}, {points} points were redeemed at {shop}, {branch}. Your balance is {balance} points (worth ₹{value}).',
  pointsAdjusted:
    'Dear {name}, {adjustment} your points account at {shop}. Your balance is now {balance} points (worth ₹{value}).',
  pointsExpiring:
    'Dear {name}, {points} of your points at {shop} expire by {dueDate}. Visit us to use them. Balance: {balance} points (worth ₹{value}).',
  schemeStarted:
    'Dear {name}, your gold savings scheme at {shop} has started. Received ₹{amount}, receipt {receipt} (installment {paid} of {total}).',
  installmentReceived:
    'Dear {name}, we received ₹{amount} for your scheme at {shop}, receipt {receipt} (installment {paid} of {total}). Thank you.',
  installmentDue:
    'Dear {name}, your scheme installment of ₹{amount} at {shop} is due on {dueDate} ({paid} of {total} paid).',
  installmentOverdue:
    'Dear {name}, your scheme installment of ₹{amount} at {shop} was due on {dueDate} and is not yet paid. Please visit {branch}.',
  schemeMatured:
    'Dear {name}, your gold savings scheme at {shop} matured on {dueDate}. Visit {branch} to close it and take your jewellery.',
  schemeClosed:
    'Dear {name}, your gold savings scheme at {shop} is closed. Thank you for saving with us.',
  tierUpgraded:
    'Dear {name}, congratulations: you are now a {tier} member at {shop}, earning more points on every purchase.',
};

/** What the preview fills the placeholders with. */
export const NOTICE_SAMPLE_VALUES: Required<NoticeValues> = {
  name: 'Lakshmi Iyer',
  points: 120,
  balance: 1450,
  value: '1,450',
  amount: '5,000',
  receipt: 'MAIN-000123',
  paid: 3,
  total: 11,
  dueDate: '05/12/2026',
  shop: 'Kanak Jewellers',
  branch: 'Main showroom',
  tier: 'Gold',
};

/** How a placeholder is written in a text: its name in braces. */
export const NOTICE_PLACEHOLDER_PATTERN = /\{(\w+)\}/g;

/** The placeholders of a text that no template may use (the preview names them). */
export const unknownPlaceholders = (text: string) =>
  [...text.matchAll(NOTICE_PLACEHOLDER_PATTERN)]
    .map((match) => match[1]!)
    .filter((key) => !(NOTICE_PLACEHOLDERS as readonly string[]).includes(key));

// ---- Message Templates -----------------------------------------------------------------------

const noticeEvent = z.enum(NOTICE_EVENTS, {
  error: `Event must be one of ${NOTICE_EVENTS.join(', ')}.`,
});

export const noticeTemplate = z.object({
  event: z.enum(NOTICE_EVENTS),
  enabled: z.boolean(),
  text: z.string(),
  /** True while the shop has not changed this event's text. */
  isDefault: z.boolean(),
});
export type NoticeTemplate = z.infer<typeof noticeTemplate>;
export const noticeTemplatesResponse = dataResponse(z.array(noticeTemplate));

/** `POST /api/settings/notice-templates`: one event's switch and text. */
export const saveNoticeTemplateRequest = z.object({
  event: noticeEvent,
  enabled: z.boolean({ error: 'Choose on or off.' }),
  text: storableText('Text', 'Text is required.')
    .trim()
    .min(1, { error: 'Text is required.' })
    .max(LIMITS.noticeTextMaxLength, {
      error: `Text must be at most ${LIMITS.noticeTextMaxLength} characters.`,
    })
    .refine((text) => unknownPlaceholders(text).length === 0, {
      error: `Text may use only these placeholders: ${NOTICE_PLACEHOLDERS.map((key) => `{${key}}`).join(' ')}.`,
    }),
});
export type SaveNoticeTemplateRequest = z.input<typeof saveNoticeTemplateRequest>;
export const saveNoticeTemplateResponse = dataResponse(noticeTemplate);

// ---- Delivery log -----------------------------------------------------------------------------

export const NOTICE_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

export const NOTICE_STATUS_LABELS: Record<NoticeStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
};

/** The Delivery Log's filters, as query parameters; empty means "any". */
export const noticesQuery = z
  .object({
    status: z.preprocess(
      emptyToUndefined,
      z
        .enum(NOTICE_STATUSES, { error: `Status must be one of ${NOTICE_STATUSES.join(', ')}.` })
        .optional(),
    ),
    event: z.preprocess(emptyToUndefined, noticeEvent.optional()),
    mobile: optionalMobileParam,
    from: optionalIsoDate('from'),
    to: optionalIsoDate('to'),
    page: pageParam(LIMITS.noticesMaxPages, 'notices'),
  })
  .refine(fromNotAfterTo, fromNotAfterToRule);
export type NoticesQuery = z.input<typeof noticesQuery>;

/** One notice: what was (or will be) sent to whom, and how it went. */
export const noticeEntry = z.object({
  id: z.number(),
  event: z.enum(NOTICE_EVENTS),
  /** None once the customer was erased. */
  mobile: z.string().nullable(),
  text: z.string(),
  status: z.enum(NOTICE_STATUSES),
  attempts: z.number(),
  /** Why it failed or was skipped (the provider's answer, or no consent). */
  reason: z.string().nullable(),
  /** The branch's code where the change it tells of was made. */
  branch: z.string().nullable(),
  /** ISO timestamps. */
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type NoticeEntry = z.infer<typeof noticeEntry>;

export const noticesResponse = dataResponse(z.array(noticeEntry)).extend({
  /** Matching notices, counted up to LIMITS.noticesCountCap. */
  total: z.number(),
});
export type NoticesResponse = z.infer<typeof noticesResponse>;

const noticeIdRule = 'The notice number must be a whole number.';

/** `POST /api/notices/resend`: a failed notice queued again, its attempts from zero. */
export const resendNoticeRequest = z.object({
  // A number, or its digits as text; never a boolean, an exponent or hex that coercion takes.
  id: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,15}$/, { error: noticeIdRule }),
      ],
      {
        error: noticeIdRule,
      },
    )
    .transform(Number)
    .refine((id) => Number.isSafeInteger(id) && id > 0, { error: noticeIdRule }),
});
export const resendNoticeResponse = dataResponse(noticeEntry);

// ---- Message Configuration's test message -----------------------------------------------------

/** `POST /api/social/test-message`: one message to the saved Phone, sent now. */
export const testMessageRequest = z.object({}).strict();
export const testMessageResult = z.object({
  sent: z.boolean(),
  /** The provider's HTTP status, when it answered. */
  status: z.number().nullable(),
  /** That the provider took it, or why it was not sent (our words, with the status). */
  answer: z.string(),
});
export type TestMessageResult = z.infer<typeof testMessageResult>;
export const testMessageResponse = dataResponse(testMessageResult);
