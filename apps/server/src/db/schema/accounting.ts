import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * The owner's accounting settings: the Tally company and the ledger names the vouchers go to
 * (by field: cashLedger, schemeAdvancesLedger...). One row; none until the owner saves them.
 */
export const accountingSettings = pgTable(
  'accounting_settings',
  {
    id: smallint('id').primaryKey(),
    company: text('company').notNull(),
    ledgers: jsonb('ledgers').$type<Record<string, string>>().notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('accounting_settings_one_row_check', sql`${t.id} = 1`)],
);

/**
 * Every voucher Tally accepted from a push, by its REMOTEID: a later push of it asks Tally to
 * alter it rather than create it.
 */
export const tallyPushedVouchers = pgTable('tally_pushed_vouchers', {
  remoteId: text('remote_id').primaryKey(),
  firstPushedAt: timestamp('first_pushed_at', { withTimezone: true }).notNull().defaultNow(),
  lastPushedAt: timestamp('last_pushed_at', { withTimezone: true }).notNull().defaultNow(),
  pushedBy: integer('pushed_by').references(() => users.id),
});

/**
 * Razorpay's settlements (its payouts of the online installments to the shop's bank), as its
 * Settlements API lists them once processed, kept for the books: each becomes one Receipt voucher
 * (Dr Bank the amount settled, Dr the fee less its GST, Dr the GST, Cr Razorpay Clearing the
 * gross). Amounts in paise, as Razorpay states them; `fees_paise` includes `tax_paise`. Written
 * once per settlement id: a processed settlement does not change. The payments and refunds
 * come from the settlement recon of its day, when Razorpay had it (null otherwise).
 */
export const razorpaySettlements = pgTable(
  'razorpay_settlements',
  {
    id: text('id').primaryKey(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    feesPaise: bigint('fees_paise', { mode: 'number' }).notNull(),
    taxPaise: bigint('tax_paise', { mode: 'number' }).notNull(),
    utr: text('utr'),
    settledAt: timestamp('settled_at', { withTimezone: true }).notNull(),
    /** The store's date of `settled_at`: the voucher's date. */
    settledOn: date('settled_on', { mode: 'string' }).notNull(),
    payments: integer('payments'),
    paymentsPaise: bigint('payments_paise', { mode: 'number' }),
    refundsPaise: bigint('refunds_paise', { mode: 'number' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    recordedBy: integer('recorded_by').references(() => users.id),
  },
  (t) => [
    check(
      'razorpay_settlements_amounts_check',
      sql`${t.amountPaise} >= 0 AND ${t.taxPaise} >= 0 AND ${t.feesPaise} >= ${t.taxPaise}`,
    ),
    index('razorpay_settlements_settled_on_idx').on(t.settledOn, t.settledAt),
  ],
);
