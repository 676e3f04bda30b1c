import { sql } from 'drizzle-orm';
import {
  bigint,
  char,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { customers } from './customers.js';
import { schemes, schemeInstallments } from './schemes.js';

/**
 * One-time sign-in codes sent to customers. The mobile number and the code are kept only as
 * keyed hashes (under DATA_KEY); a code lives 5 minutes and dies after one use or 5 wrong tries.
 * A number that is no customer's gets its row too (no customer, the code never sent, opening
 * nothing): asking for a code does the same work whoever the number is, so its time tells
 * nothing.
 */
export const memberCodes = pgTable(
  'member_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    mobileHash: text('mobile_hash').notNull(),
    customerId: integer('customer_id').references(() => customers.id),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    tries: smallint('tries').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('member_codes_mobile_idx').on(t.mobileHash, t.id),
    // A change of the customer's mobile number ends their codes (the trigger of the migration
    // `member_sessions_end_on_new_mobile`).
    index('member_codes_customer_idx').on(t.customerId),
  ],
);

/**
 * A customer's signed-in sessions: a member token is good while its row is open. A change of
 * the customer's mobile number ends them (the trigger of the migration
 * `member_sessions_end_on_new_mobile`): they were opened by a code sent to the old number.
 */
export const memberSessions = pgTable(
  'member_sessions',
  {
    jti: uuid('jti').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('member_sessions_customer_idx').on(t.customerId)],
);

/**
 * Orders made at the payment gateway for one installment (`period`, YYYY-MM) of a scheme.
 * `created` until a payment is seen; then `paid` with the installment it recorded, `overpaid`
 * when that month was meanwhile paid another way, or `mismatch` when the payment's amount
 * (`received_paise`) is not the order's: those two bought nothing and are for staff to refund.
 */
export const onlineOrders = pgTable(
  'online_orders',
  {
    orderId: text('order_id').primaryKey(),
    schemeId: integer('scheme_id')
      .notNull()
      .references(() => schemes.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    period: char('period', { length: 7 }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('created'),
    paymentId: text('payment_id').unique(),
    /** What the gateway says the payment was, when it is not `amount_paise`. */
    receivedPaise: bigint('received_paise', { mode: 'number' }),
    installmentId: bigint('installment_id', { mode: 'number' }).references(
      () => schemeInstallments.id,
    ),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The gateway's refund id, noted by staff with the refund. */
    refundReference: text('refund_reference'),
  },
  (t) => [
    check(
      'online_orders_status_check',
      sql`${t.status} IN ('created', 'paid', 'overpaid', 'mismatch')`,
    ),
    index('online_orders_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'created'`),
    // A customer's open orders: the one to reuse for an installment, and how many are open.
    index('online_orders_customer_open_idx')
      .on(t.customerId, t.createdAt)
      .where(sql`${t.status} = 'created'`),
  ],
);

/**
 * A second payment captured for an order already settled (a customer who paid twice): the
 * money is for staff to refund, noted once whoever sees it first.
 */
export const onlineExtraPayments = pgTable('online_extra_payments', {
  paymentId: text('payment_id').primaryKey(),
  orderId: text('order_id')
    .notNull()
    .references(() => onlineOrders.orderId),
  amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  refundReference: text('refund_reference'),
});

/** Webhook deliveries already handled, by the gateway's event id: a repeat is dropped. */
export const gatewayEvents = pgTable('gateway_events', {
  eventId: text('event_id').primaryKey(),
  receivedAt: createdAt(),
});
