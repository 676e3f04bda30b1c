import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
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
