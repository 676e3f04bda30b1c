import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, firstBranchId } from './columns.js';
import { branches } from './branches.js';
import { customers } from './customers.js';
import { users } from './users.js';

/**
 * When installment k of a scheme started on `startdt` falls due, in SQL: the start date plus k
 * calendar months, the 31st becoming a shorter month's last day, as installmentDueOn says;
 * PostgreSQL's month arithmetic gives the same day.
 */
const installmentDueSql = (startdt: SQL, k: SQL) =>
  sql`(${startdt} + make_interval(months => ${k}))::date`;

/**
 * The plans a scheme may be started on: paid in rupees (`value`) or booked as gold at each
 * installment's day rate (`weight`), with their term, bonus and grace. `STD` is the
 * standard scheme, whose installments and bonus come from the server's settings. A plan
 * that schemes use keeps its terms (only its name and whether it is offered may change), so a
 * running scheme's bonus and grace are its plan's row.
 */
export const schemePlans = pgTable(
  'scheme_plans',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull().unique('scheme_plans_code_key'),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    installments: smallint('installments').notNull(),
    /** The least installment, whole rupees. */
    minAmount: integer('min_amount').notNull(),
    /** The bonus, as a percentage of one installment, for every installment paid on time. */
    bonusPercent: smallint('bonus_percent').notNull(),
    graceDays: smallint('grace_days').notNull(),
    redeemWithinDays: smallint('redeem_within_days').notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('scheme_plans_kind_check', sql`${t.kind} IN ('value', 'weight')`),
    check('scheme_plans_installments_check', sql`${t.installments} BETWEEN 1 AND 11`),
    check('scheme_plans_min_amount_check', sql`${t.minAmount} >= 1`),
    check('scheme_plans_bonus_check', sql`${t.bonusPercent} >= 0`),
    check('scheme_plans_grace_check', sql`${t.graceDays} >= 0`),
    check('scheme_plans_redeem_check', sql`${t.redeemWithinDays} >= 1`),
  ],
);

/**
 * Gold-savings schemes: `installments` monthly payments of `amount` rupees from `startdt`,
 * maturing on `matdt`. Status n Inactive, a Active, m Completed, x cancelled (kept for audit).
 */
export const schemes = pgTable(
  'schemes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    startdt: date('startdt').notNull(),
    matdt: date('matdt').notNull(),
    amount: integer('amount').notNull(),
    installments: smallint('installments').notNull(),
    status: char('status', { length: 1 }).notNull().default('n'),
    bonus: integer('bonus'),
    maturityValue: bigint('maturity_value', { mode: 'number' }),
    /** The branch of the staff member who started the scheme. */
    branchId: integer('branch_id')
      .notNull()
      .default(firstBranchId)
      .references(() => branches.id),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    cancelledBy: integer('cancelled_by').references(() => users.id),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    closedBy: integer('closed_by').references(() => users.id),
    closedOn: date('closed_on'),
    /**
     * Installments paid: kept by a trigger on scheme_installments, in the installment's own
     * statement, so it always equals their count (a test compares the two).
     */
    paid: smallint('paid').notNull().default(0),
    /** The scheme's plan; none for the standard scheme (`STD`), as before plans. */
    planId: integer('plan_id').references(() => schemePlans.id),
    /** A weight scheme's closing: the 22K rate it was valued at and the bonus in milligrams. */
    closingRatePaise: integer('closing_rate_paise'),
    bonusMg: integer('bonus_mg'),
    /**
     * The due date of the oldest unpaid installment, by the schemes' rule of when an
     * installment is due; none once all are paid.
     * Computed by PostgreSQL from `paid`, so the overdue report reads an index, not the
     * installments.
     */
    nextDue: date('next_due').generatedAlwaysAs(
      sql`CASE WHEN paid < installments THEN ${installmentDueSql(sql`startdt`, sql`paid::integer`)} END`,
    ),
  },
  (t) => [
    // A customer can never hold two Inactive schemes, whatever the timing of requests.
    uniqueIndex('schemes_one_inactive_per_customer')
      .on(t.customerId)
      .where(sql`${t.status} = 'n'`),
    index('schemes_customer_idx').on(t.customerId, t.id),
    // The schemes closed in a range of days, in order: the Tally export's bonus journals.
    index('schemes_closed_idx')
      .on(t.closedOn, t.id)
      .where(sql`${t.status} = 'm'`),
    // A plan's schemes: whether its terms may change, and the gold its running ones hold.
    index('schemes_plan_idx')
      .on(t.planId, t.status)
      .where(sql`${t.planId} IS NOT NULL`),
    // The summary's index, (startdt, id) INCLUDE (customer_id, amount, status), is written in
    // migration 0005 by hand: drizzle cannot declare INCLUDE columns. So are two of the reports
    // migration: schemes_active_idx, (next_due, id) INCLUDE (branch_id, amount, startdt, matdt,
    // installments, paid, plan_id: its plan's grace decides what is overdue) WHERE
    // status = 'a', which the overdue report and its totals read alone; and (matdt, id) INCLUDE
    // (branch_id) WHERE status = 'a': the schemes maturing soon, counted by the dashboard from
    // the index alone.
    check('schemes_status_check', sql`${t.status} IN ('n', 'a', 'm', 'x')`),
    check('schemes_amount_check', sql`${t.amount} BETWEEN 1 AND 9999999`),
    check('schemes_paid_check', sql`${t.paid} >= 0`),
  ],
);

/** Payments into a scheme, one per calendar month (`period` YYYY-MM), each with a receipt. */
export const schemeInstallments = pgTable(
  'scheme_installments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    schemeId: integer('scheme_id')
      .notNull()
      .references(() => schemes.id),
    /** The branch that took the payment; its receipt numbers run without gaps. */
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    /**
     * The number within the branch's run; none for an installment brought in from other
     * software, which keeps its old receipt outside Kanak's gapless run.
     */
    receiptNo: bigint('receipt_no', { mode: 'number' }),
    /**
     * The receipt number as printed: the branch code and the number (`MAIN-000058`); receipts
     * issued before branches keep their plain number.
     */
    receipt: text('receipt').notNull(),
    paidOn: date('paid_on').notNull(),
    period: char('period', { length: 7 }).notNull(),
    amount: integer('amount').notNull(),
    mode: text('mode').notNull(),
    reference: text('reference').notNull().default(''),
    narration: text('narration').notNull().default(''),
    /** A weight scheme's installment: the day's 22K rate (paise a gram) and the gold it bought. */
    rate22kPaise: integer('rate22k_paise'),
    mg: integer('mg'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('scheme_installments_month_key').on(t.schemeId, t.period),
    uniqueIndex('scheme_installments_receipt_key').on(t.branchId, t.receiptNo),
    // The cash book: a day's installments in the order they were recorded.
    index('scheme_installments_day_idx').on(t.paidOn, t.createdAt, t.id),
    // The cash book by the day entered: what was recorded that day, whatever its date.
    index('scheme_installments_entered_idx').on(t.createdAt, t.id),
    // What staff typed, by trigram: an erasure finds the few narrations and counter references
    // that name the customer.
    index('scheme_installments_narration_trgm_idx')
      .using('gin', t.narration.op('gin_trgm_ops'))
      .where(sql`${t.narration} <> ''`),
    index('scheme_installments_reference_trgm_idx')
      .using('gin', t.reference.op('gin_trgm_ops'))
      .where(sql`${t.reference} <> '' AND ${t.mode} IN ('cash', 'upi', 'card', 'bank', 'cheque')`),
    check(
      'scheme_installments_mode_check',
      sql`${t.mode} IN ('cash', 'upi', 'card', 'bank', 'cheque', 'online', 'imported')`,
    ),
    check(
      'scheme_installments_receipt_check',
      sql`${t.receiptNo} IS NOT NULL OR ${t.mode} = 'imported'`,
    ),
    check('scheme_installments_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * Active schemes per branch (where they were started) and the rupees a month they still
 * promise (those with installments to pay): kept by a trigger on schemes in each change's own
 * statement (a test compares it with the schemes), so the dashboard does not count hundreds of
 * thousands of schemes.
 */
export const schemesActive = pgTable('schemes_active', {
  branchId: integer('branch_id')
    .primaryKey()
    .references(() => branches.id),
  schemes: integer('schemes').notNull(),
  commitment: bigint('commitment', { mode: 'number' }).notNull(),
});

/**
 * Schemes per start date and status, with their monthly amounts: kept by a trigger on schemes
 * in each change's own statement (a test compares it with the schemes), so Scheme Summary's
 * totals for a month add up a few hundred rows here instead of counting every scheme of the
 * month (hundreds of thousands in a large chain). A change that moves no scheme between start dates
 * or statuses, such as an installment paid, writes nothing here. As for the points figures,
 * each transaction adds to one of a few `slot` rows (chosen by its transaction id), so the
 * branches starting schemes on one day seldom wait for each other; readers add the slots up.
 */
export const schemesByStart = pgTable(
  'schemes_by_start',
  {
    startdt: date('startdt').notNull(),
    status: char('status', { length: 1 }).notNull(),
    slot: smallint('slot').notNull(),
    schemes: integer('schemes').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.startdt, t.status, t.slot] })],
);

/**
 * Installments received per day, branch and mode: kept by a trigger on scheme_installments in
 * the installment's own statement (a test compares it with the installments), so the dashboard
 * sums a few hundred rows for a year instead of millions of installments. A branch's
 * installments already take turns on its receipt counter, so its rows here add no waiting.
 */
export const collectionsByDay = pgTable(
  'collections_by_day',
  {
    day: date('day').notNull(),
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    mode: text('mode').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    installments: integer('installments').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.branchId, t.mode] })],
);

/**
 * The last receipt number each branch issued: a row per branch, locked by the installment's
 * transaction until it commits, so a branch's receipt numbers have no gaps.
 */
export const receiptCounter = pgTable('receipt_counter', {
  branchId: integer('branch_id')
    .primaryKey()
    .references(() => branches.id),
  lastNo: bigint('last_no', { mode: 'number' }).notNull(),
});
