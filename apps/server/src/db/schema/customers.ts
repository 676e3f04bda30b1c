import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

/**
 * Customers: who they are and how to reach them. Their points balance is their points account
 * (points_accounts), which the points module owns.
 */
export const customers = pgTable(
  'customers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null once the customer is erased: the number is free for a new enrolment. */
    mobileno: varchar('mobileno', { length: 10 }),
    custname: text('custname').notNull(),
    email: text('email').notNull().default(''),
    address: text('address').notNull().default(''),
    city: text('city').notNull().default(''),
    pincode: text('pincode').notNull().default(''),
    state: text('state').notNull().default(''),
    dob: date('dob'),
    doa: date('doa'),
    /** AES-256-GCM with DATA_KEY; never returned. */
    aadhaarSealed: text('aadhaar_sealed'),
    aadhaarLast4: varchar('aadhaar_last4', { length: 4 }),
    pan: text('pan').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The customer asked to be erased: name, contact, address, dates, Aadhaar and PAN are gone;
     * the ledger and schemes still point at this row by id, so their sums stay whole.
     */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    erasedBy: integer('erased_by').references(() => users.id),
    /**
     * The erased customer's mobile number, as an HMAC under DATA_KEY only: an import of old
     * software's customers can tell it is theirs and leave them erased, and nobody can read it.
     */
    erasedMobileHash: text('erased_mobile_hash'),
  },
  (t) => [
    // text_pattern_ops: the same uniqueness, and `LIKE '98%'` prefix search under any collation.
    uniqueIndex('customers_mobileno_key').using('btree', t.mobileno.op('text_pattern_ops')),
    index('customers_custname_trgm_idx').using('gin', t.custname.op('gin_trgm_ops')),
    index('customers_custname_prefix_idx').using(
      'btree',
      sql`lower(${t.custname}) text_pattern_ops`,
    ),
    index('customers_erased_mobile_hash_idx')
      .on(t.erasedMobileHash)
      .where(sql`${t.erasedMobileHash} IS NOT NULL`),
    // Only an erased customer is without a mobile number.
    check(
      'customers_mobileno_erased_check',
      sql`${t.mobileno} IS NOT NULL OR ${t.erasedAt} IS NOT NULL`,
    ),
    // Also in migration 0005, by hand (drizzle cannot declare them): the covering index
    // customers_names_idx (id) INCLUDE (custname, mobileno), and statistics target 1000 on
    // custname. In migration 0021: fillfactor 90 (set when the balance was a column here).
  ],
);

/**
 * Consent per purpose (transactional notices, marketing), every grant and withdrawal kept:
 * the latest row of a purpose is the customer's current choice. Rows are never changed.
 */
export const customerConsents = pgTable(
  'customer_consents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    purpose: text('purpose').notNull(),
    granted: boolean('granted').notNull(),
    /** How it was given or withdrawn: 'staff' at the counter, 'erasure' when erased. */
    method: text('method').notNull(),
    /** The version of the privacy notice the customer was shown. */
    noticeVersion: text('notice_version').notNull(),
    recordedBy: integer('recorded_by').references(() => users.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_consents_customer_idx').on(t.customerId, t.purpose, t.id),
    check('customer_consents_purpose_check', sql`${t.purpose} IN ('transactional', 'marketing')`),
  ],
);

/**
 * Single-use links for the browser's own download of the customer CSV. Only a SHA-256 of the
 * random ticket is kept; the session it was made in (user, token version, jti) must still be
 * valid when it is used.
 */
export const exportTickets = pgTable(
  'export_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenVersion: integer('token_version').notNull(),
    jti: text('jti'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('export_tickets_expires_at_idx').on(t.expiresAt)],
);
