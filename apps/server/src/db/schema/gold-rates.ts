import { sql } from 'drizzle-orm';
import { check, date, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

/**
 * The day's gold rate, rupees per gram in integer paise: one row per date, a correction
 * overwrites it (the audit log keeps the rate before). Weight schemes book gold at it.
 */
export const goldRates = pgTable(
  'gold_rates',
  {
    rateDate: date('rate_date', { mode: 'string' }).primaryKey(),
    rate22kPaise: integer('rate22k_paise').notNull(),
    rate24kPaise: integer('rate24k_paise').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    updatedBy: integer('updated_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('gold_rates_rate22k_check', sql`${t.rate22kPaise} > 0`),
    check('gold_rates_rate24k_check', sql`${t.rate24kPaise} > 0`),
  ],
);
