import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/**
 * The shop's branches (showrooms). `code` (2 to 6 capital letters) prefixes the branch's
 * receipt numbers and never changes; name, address and phone are printed on its printouts.
 */
export const branches = pgTable(
  'branches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: varchar('code', { length: 6 }).notNull().unique(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    phone: text('phone').notNull(),
    /** The state the branch is in, printed on its receipts beside the shop's GSTIN; may be ''. */
    state: text('state').notNull().default(''),
    /** The paper the branch's counter prints receipts on: A4 sheets or an 80 mm thermal roll. */
    receiptPaper: text('receipt_paper').notNull().default('a4'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('branches_code_check', sql`${t.code} ~ '^[A-Z]{2,6}$'`),
    check('branches_receipt_paper_check', sql`${t.receiptPaper} IN ('a4', '80mm')`),
  ],
);
