import { sql } from 'drizzle-orm';
import {
  bigint,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
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
 * A customer's points account: the balance, the sum of the customer's ledger entries and of
 * their open lots, changed only by the points ledger in the transaction that writes the entry.
 * Its row is what every change of the customer's points locks. Every customer has one from the
 * moment they exist: the trigger of this table's migration opens it in the customer's own
 * INSERT statement, so taking the lock is always a plain SELECT … FOR UPDATE of a row that is
 * there, never a write to create it first. Also in that migration: fillfactor 90, room on each
 * page for the new version of a changed balance (a HOT update).
 */
export const pointsAccounts = pgTable(
  'points_accounts',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => customers.id),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('points_accounts_balance_check', sql`${t.balance} >= 0`)],
);

/** The loyalty-points ledger. Rows are never deleted; edits of manual rows keep history. */
export const pointsEntries = pgTable(
  'points_entries',
  {
    mrn: bigint('mrn', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    invdate: date('invdate').notNull(),
    narration: text('narration').notNull(),
    saleAmountPaise: bigint('sale_amount_paise', { mode: 'number' }).notNull().default(0),
    credit: integer('credit').notNull().default(0),
    debit: integer('debit').notNull().default(0),
    /** M typed by staff (editable), S sale, X return, R redemption (or its cancel), E expiry. */
    source: char('ts', { length: 1 }).notNull(),
    /** The branch of the staff member who recorded the row. */
    branchId: integer('branch_id')
      .notNull()
      .default(firstBranchId)
      .references(() => branches.id),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    index('points_entries_statement_idx').on(t.customerId, t.invdate, t.mrn),
    // Narrations typed by staff, by trigram: an erasure finds the few that name the customer
    // among millions of rows. Sales and returns (Kanak's words) stay out of it.
    index('points_entries_typed_narration_trgm_idx')
      .using('gin', t.narration.op('gin_trgm_ops'))
      .where(sql`${t.source} = 'M'`),
    // The cash book's points redeemed by staff of a day, in the order made: the few ledger rows
    // of redemptions with a staff member behind them (the billing system's have none).
    index('points_entries_staff_redemptions_idx')
      .on(t.createdAt, t.mrn)
      .where(sql`${t.source} = 'R' AND ${t.createdBy} IS NOT NULL`),
    check(
      'points_entries_one_side_check',
      sql`${t.credit} >= 0 AND ${t.debit} >= 0 AND (${t.credit} = 0 OR ${t.debit} = 0)`,
    ),
    check('points_entries_source_check', sql`${t.source} IN ('M', 'S', 'X', 'R', 'E', 'O')`),
  ],
);

/** Every edit of a ledger row: the row before and after, who and when. */
export const pointsEntryHistory = pgTable(
  'points_entry_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    mrn: bigint('mrn', { mode: 'number' })
      .notNull()
      .references(() => pointsEntries.mrn),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
    changedBy: integer('changed_by').references(() => users.id),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('points_entry_history_mrn_idx').on(t.mrn)],
);

/**
 * The points rules, one row per version: a change inserts a row valid from its time on, so a
 * sale is always computed with the rules of its own moment and nothing past is rewritten.
 * Amounts in paise; `expiry_months` 0 means points never expire.
 */
export const pointsRules = pgTable(
  'points_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    rupeesPerPointPaise: integer('rupees_per_point_paise').notNull(),
    excludedCategories: jsonb('excluded_categories').$type<string[]>().notNull(),
    pointValuePaise: integer('point_value_paise').notNull(),
    minRedeemPoints: integer('min_redeem_points').notNull(),
    expiryMonths: smallint('expiry_months').notNull(),
    createdBy: integer('created_by').references(() => users.id),
  },
  (t) => [
    index('points_rules_valid_from_idx').on(t.validFrom),
    check('points_rules_rupees_per_point_check', sql`${t.rupeesPerPointPaise} > 0`),
    check('points_rules_point_value_check', sql`${t.pointValuePaise} >= 0`),
    check('points_rules_min_redeem_check', sql`${t.minRedeemPoints} >= 0`),
    check('points_rules_expiry_check', sql`${t.expiryMonths} BETWEEN 0 AND 120`),
  ],
);

/**
 * Points lots: every credit of the ledger (a sale, a manual credit, a cancelled redemption's
 * return goes back to its own lots) is a lot with its expiry date; debits take from the lots
 * that expire first. The lots' remaining points of a customer always add up to the balance.
 * `entry_mrn` is null only for the lot each customer's balance became when lots began.
 */
export const pointsLots = pgTable(
  'points_lots',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    entryMrn: bigint('entry_mrn', { mode: 'number' }).references(() => pointsEntries.mrn),
    earnedOn: date('earned_on').notNull(),
    /** Null: never expires. The lot expires at the start of this day. */
    expiresOn: date('expires_on'),
    points: integer('points').notNull(),
    remaining: integer('remaining').notNull(),
    /**
     * The branch that gave the points (its ledger row's), set by a trigger as the lot is
     * written; the first branch for the lots balances became and for points given back
     * with no lot left to take them.
     */
    branchId: integer('branch_id')
      .notNull()
      .default(firstBranchId)
      .references(() => branches.id),
    createdAt: createdAt(),
  },
  (t) => [
    // A branch's points still held, by customer: the points liability of one branch.
    index('points_lots_branch_idx')
      .on(t.branchId, t.customerId, t.remaining)
      .where(sql`${t.remaining} > 0`),
    index('points_lots_customer_idx')
      .on(t.customerId, t.expiresOn, t.id)
      .where(sql`${t.remaining} > 0`),
    // The expiry walks the due lots in this order, each batch after the last one's key.
    index('points_lots_due_idx')
      .on(t.expiresOn, t.id)
      .where(sql`${t.remaining} > 0 AND ${t.expiresOn} IS NOT NULL`),
    uniqueIndex('points_lots_entry_key').on(t.entryMrn),
    check('points_lots_remaining_check', sql`${t.remaining} >= 0`),
  ],
);

/**
 * Points issued, redeemed and expired per day and branch, kept by a trigger on points_entries
 * in the ledger change's own statement (a test compares it with the ledger): issued = sale and
 * staff credits less returns; redeemed = counter redemptions less their cancels, and staff
 * deductions; expired = the expiry's rows. So issued − redeemed − expired over all days is
 * the points outstanding. Each transaction adds to one of a few `slot` rows of its day and
 * branch (chosen by its transaction id), so counters posting at once seldom wait for each
 * other's row; readers add the slots up.
 */
export const pointsByDay = pgTable(
  'points_by_day',
  {
    day: date('day').notNull(),
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    slot: smallint('slot').notNull(),
    issued: bigint('issued', { mode: 'number' }).notNull(),
    redeemed: bigint('redeemed', { mode: 'number' }).notNull(),
    expired: bigint('expired', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.branchId, t.slot] })],
);

/**
 * The points still held in lots, per branch that gave them: kept by a trigger on points_lots
 * in each lot change's own statement (a test compares it with the lots), so the dashboard
 * reads a branch's points outstanding from a few rows. Slots as in points_by_day.
 */
export const pointsHeld = pgTable(
  'points_held',
  {
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    slot: smallint('slot').notNull(),
    points: bigint('points', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.branchId, t.slot] })],
);

/** Which lots each debit of the ledger took its points from (to give them back exactly). */
export const pointsLotTakes = pgTable(
  'points_lot_takes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    entryMrn: bigint('entry_mrn', { mode: 'number' })
      .notNull()
      .references(() => pointsEntries.mrn),
    lotId: bigint('lot_id', { mode: 'number' })
      .notNull()
      .references(() => pointsLots.id),
    points: integer('points').notNull(),
  },
  (t) => [
    index('points_lot_takes_entry_idx').on(t.entryMrn),
    index('points_lot_takes_lot_idx').on(t.lotId),
    check('points_lot_takes_points_check', sql`${t.points} > 0`),
  ],
);

/**
 * Invoices posted by a counter's billing system, one per (branch, invoice number): a repeat
 * with the same contents gets the stored answer, other contents 409. Amounts in paise; the
 * points the sale earned and the excluded categories of its rules (for its returns).
 * `branch_code` is the API key's branch (a branch's code never changes).
 */
export const posSales = pgTable(
  'pos_sales',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    branchCode: text('branch_code').notNull(),
    invoiceNo: text('invoice_no').notNull(),
    requestHash: text('request_hash').notNull(),
    customerId: integer('customer_id').references(() => customers.id),
    invoiceDate: date('invoice_date').notNull(),
    saleAmountPaise: bigint('sale_amount_paise', { mode: 'number' }).notNull(),
    eligiblePaise: bigint('eligible_paise', { mode: 'number' }).notNull(),
    points: integer('points').notNull().default(0),
    excludedCategories: jsonb('excluded_categories').$type<string[]>().notNull(),
    entryMrn: bigint('entry_mrn', { mode: 'number' }).references(() => pointsEntries.mrn),
    response: jsonb('response'),
    apiKeyId: integer('api_key_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pos_sales_invoice_key').on(t.branchCode, t.invoiceNo),
    // The ledger's foreign keys are checked by these: without them, each ledger row deleted
    // read every sale (the benchmark's clean-up of a million rows took over 20 minutes).
    index('pos_sales_entry_idx').on(t.entryMrn),
    // A customer's eligible spend over the last 12 months, for their tier.
    index('pos_sales_customer_idx').on(t.customerId, t.invoiceDate),
  ],
);

/**
 * Returns against posted invoices, one per (branch, return number). `points` were taken back,
 * `unrecovered` could not be (already spent); `due` = points + unrecovered.
 */
export const posReturns = pgTable(
  'pos_returns',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    branchCode: text('branch_code').notNull(),
    returnNo: text('return_no').notNull(),
    requestHash: text('request_hash').notNull(),
    saleId: bigint('sale_id', { mode: 'number' }).references(() => posSales.id),
    returnDate: date('return_date').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull().default(0),
    eligiblePaise: bigint('eligible_paise', { mode: 'number' }).notNull().default(0),
    points: integer('points').notNull().default(0),
    unrecovered: integer('unrecovered').notNull().default(0),
    entryMrn: bigint('entry_mrn', { mode: 'number' }).references(() => pointsEntries.mrn),
    response: jsonb('response'),
    apiKeyId: integer('api_key_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pos_returns_return_key').on(t.branchCode, t.returnNo),
    index('pos_returns_sale_idx').on(t.saleId),
    index('pos_returns_entry_idx').on(t.entryMrn),
    index('pos_returns_unrecovered_idx')
      .on(t.createdAt)
      .where(sql`${t.unrecovered} > 0`),
  ],
);

/**
 * A redemption staff made on the Redeem Points screen, beside its ledger row: the bill they
 * named and the rupee worth the customer was given at the rules then in force. The cash book
 * counts staff redemptions from here, as it counts the billing system's from pos_redemptions.
 */
export const counterRedemptions = pgTable('counter_redemptions', {
  entryMrn: bigint('entry_mrn', { mode: 'number' })
    .primaryKey()
    .references(() => pointsEntries.mrn),
  /** The bill staff named; '' when they named none. */
  invoiceNo: text('invoice_no').notNull().default(''),
  valuePaise: bigint('value_paise', { mode: 'number' }).notNull(),
});

/** Points redeemed at the counter against an invoice, one per (branch, invoice number). */
export const posRedemptions = pgTable(
  'pos_redemptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    branchCode: text('branch_code').notNull(),
    invoiceNo: text('invoice_no').notNull(),
    requestHash: text('request_hash').notNull(),
    customerId: integer('customer_id').references(() => customers.id),
    points: integer('points').notNull().default(0),
    valuePaise: bigint('value_paise', { mode: 'number' }).notNull().default(0),
    entryMrn: bigint('entry_mrn', { mode: 'number' }).references(() => pointsEntries.mrn),
    response: jsonb('response'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelEntryMrn: bigint('cancel_entry_mrn', { mode: 'number' }).references(
      () => pointsEntries.mrn,
    ),
    apiKeyId: integer('api_key_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pos_redemptions_invoice_key').on(t.branchCode, t.invoiceNo),
    // The cash book's redemptions of a day, and its cancels.
    index('pos_redemptions_created_idx').on(t.createdAt, t.id),
    index('pos_redemptions_entry_idx').on(t.entryMrn),
    index('pos_redemptions_cancel_entry_idx').on(t.cancelEntryMrn),
    index('pos_redemptions_cancelled_idx')
      .on(t.cancelledAt, t.id)
      .where(sql`${t.cancelledAt} IS NOT NULL`),
  ],
);

/** One tier as the owner sets it: `min_spend_paise` of eligible sales over 12 months. */
export interface TierRow {
  code: string;
  name: string;
  minSpendPaise: number;
  earnPercent: number;
}

/**
 * The owner's tier settings, one row per version (the newest is in force): the tiers, lowest
 * first, and whether a tier falls on its anniversary or never. No row, or an empty list:
 * every customer earns the base rate.
 */
export const tierSettings = pgTable(
  'tier_settings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    tiers: jsonb('tiers').$type<TierRow[]>().notNull(),
    downgrade: text('downgrade').notNull(),
    createdBy: integer('created_by').references(() => users.id),
  },
  (t) => [
    index('tier_settings_valid_from_idx').on(t.validFrom),
    check('tier_settings_downgrade_check', sql`${t.downgrade} IN ('anniversary', 'never')`),
  ],
);

/**
 * A customer's tier: the one earned by spend (reached on `earned_on`, looked at again on
 * `review_on`, its anniversary) and the one an owner set by hand until a date. The higher of
 * the two applies. Changed only under the customer's points account lock.
 */
export const customerTiers = pgTable(
  'customer_tiers',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => customers.id),
    earnedCode: text('earned_code'),
    earnedOn: date('earned_on'),
    reviewOn: date('review_on'),
    manualCode: text('manual_code'),
    manualUntil: date('manual_until'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The anniversary job's walk: the earned tiers due to be looked at again.
    index('customer_tiers_review_idx')
      .on(t.reviewOn, t.customerId)
      .where(sql`${t.reviewOn} IS NOT NULL`),
  ],
);
