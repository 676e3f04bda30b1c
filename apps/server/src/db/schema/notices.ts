import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { branches } from './branches.js';
import { customers } from './customers.js';
import { users } from './users.js';

/**
 * What each kind of notice to customers says, and whether it is sent at all, as the owner
 * set it on Message Templates. No row: the contract's default text, switched on.
 */
export const noticeTemplates = pgTable('notice_templates', {
  event: text('event').primaryKey(),
  enabled: boolean('enabled').notNull(),
  text: text('text').notNull(),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The outbox of WhatsApp notices to customers: each row is written in the same transaction as
 * the change it tells of, its text rendered then (the log shows what was sent), and a job sends
 * it. A sender claims a row by setting `claimed_until` (and counting the attempt) with a
 * conditional UPDATE, and marks it sent only while that claim is its own.
 */
export const notices = pgTable(
  'notices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    event: text('event').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** The branch where the change was made; none for a digest of the whole account. */
    branchId: integer('branch_id').references(() => branches.id),
    /** Null once the customer is erased. */
    mobile: text('mobile'),
    text: text('text').notNull(),
    status: text('status').$type<'queued' | 'sent' | 'failed' | 'skipped'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Why it was skipped, or why the last attempt failed (in the shop's words). */
    reason: text('reason'),
    /** Not sent before this moment: a reminder waits for the day's hours, a retry its delay. */
    notBefore: timestamp('not_before', { withTimezone: true }).notNull().defaultNow(),
    /** A sender's claim: until then no other sender takes the row. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** Reminders and digests: one row per installment, scheme or month, however often run. */
    dedupeKey: text('dedupe_key'),
    providerMessageId: text('provider_message_id'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the provider said it reached the phone (the official panel's webhook). */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** When the provider said the customer read it. */
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notices_dedupe_key')
      .on(t.dedupeKey)
      .where(sql`${t.dedupeKey} IS NOT NULL`),
    // The sender's claim reads the due rows of this index only.
    index('notices_due_idx')
      .on(t.notBefore, t.id)
      .where(sql`${t.status} = 'queued'`),
    // The Delivery Log, newest first, with or without a filter; a customer's own notices.
    index('notices_created_idx').on(t.createdAt, t.id),
    index('notices_status_created_idx').on(t.status, t.createdAt, t.id),
    index('notices_mobile_created_idx')
      .on(t.mobile, t.createdAt, t.id)
      .where(sql`${t.mobile} IS NOT NULL`),
    index('notices_customer_idx').on(t.customerId, t.id),
    // The provider's word on a message it took (delivered, read, failed) finds its notice.
    index('notices_provider_message_idx')
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} IS NOT NULL`),
    check('notices_status_check', sql`${t.status} IN ('queued', 'sent', 'failed', 'skipped')`),
    check('notices_attempts_check', sql`${t.attempts} >= 0`),
  ],
);
