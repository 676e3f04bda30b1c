import { sql } from 'drizzle-orm';
import type { Role } from '@kanak/contract';
import {
  bigint,
  boolean,
  char,
  check,
  customType,
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
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Staff accounts. `token_version` ends every session when bumped (password change, disable). */
export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    /** owner, manager or cashier: what the account may do (the contract's access matrix). */
    role: text('role').$type<Role>().notNull().default('cashier'),
    /** The staff member's full name, for the audit trail and printouts. */
    name: text('name').notNull().default(''),
    /** A temporary password (a new account, a reset): it must be changed before anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    check('users_role_check', sql`${t.role} IN ('owner', 'manager', 'cashier')`),
  ],
);

/** Failed sign-ins per username, kept in the database so every server instance agrees. */
export const loginLockouts = pgTable('login_lockouts', {
  username: text('username').primaryKey(),
  failures: smallint('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** The first response to each (user, Idempotency-Key); a retry gets it back instead of a redo. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: smallint('status_code'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Tokens ended by Logout, by their `jti`. Kept until the token would have expired anyway;
 * then the signature check refuses it and the row is only clutter.
 */
export const endedSessions = pgTable(
  'ended_sessions',
  {
    jti: text('jti').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ended_sessions_expires_at_idx').on(t.expiresAt)],
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

/** Who changed what, and when. Every change of data writes one row, in the change's transaction. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    detail: jsonb('detail'),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

/**
 * Customers. `points_balance` is the sum of the customer's ledger entries, kept in the same
 * transaction as every entry change (a test checks the two always agree).
 */
export const customers = pgTable(
  'customers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    mobileno: varchar('mobileno', { length: 10 }).notNull(),
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
    pointsBalance: bigint('points_balance', { mode: 'number' }).notNull().default(0),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // text_pattern_ops: the same uniqueness, and `LIKE '98%'` prefix search under any collation.
    uniqueIndex('customers_mobileno_key').using('btree', t.mobileno.op('text_pattern_ops')),
    index('customers_custname_trgm_idx').using('gin', t.custname.op('gin_trgm_ops')),
    index('customers_custname_prefix_idx').using(
      'btree',
      sql`lower(${t.custname}) text_pattern_ops`,
    ),
    check('customers_points_balance_check', sql`${t.pointsBalance} >= 0`),
    // Also in migration 0005, by hand (drizzle cannot declare them): the covering index
    // customers_names_idx (id) INCLUDE (custname, mobileno), and statistics target 1000 on
    // custname.
  ],
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
    /** M typed by staff (editable), S from a sale. */
    source: char('ts', { length: 1 }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    index('points_entries_statement_idx').on(t.customerId, t.invdate, t.mrn),
    check(
      'points_entries_one_side_check',
      sql`${t.credit} >= 0 AND ${t.debit} >= 0 AND (${t.credit} = 0 OR ${t.debit} = 0)`,
    ),
    check('points_entries_source_check', sql`${t.source} IN ('M', 'S')`),
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
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    cancelledBy: integer('cancelled_by').references(() => users.id),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    closedBy: integer('closed_by').references(() => users.id),
    closedOn: date('closed_on'),
  },
  (t) => [
    // A customer can never hold two Inactive schemes, whatever the timing of requests.
    uniqueIndex('schemes_one_inactive_per_customer')
      .on(t.customerId)
      .where(sql`${t.status} = 'n'`),
    index('schemes_customer_idx').on(t.customerId, t.id),
    // The summary's index, (startdt, id) INCLUDE (customer_id, amount, status), is written in
    // migration 0005 by hand: drizzle cannot declare INCLUDE columns.
    check('schemes_status_check', sql`${t.status} IN ('n', 'a', 'm', 'x')`),
    check('schemes_amount_check', sql`${t.amount} BETWEEN 1 AND 9999999`),
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
    receiptNo: bigint('receipt_no', { mode: 'number' }).notNull(),
    paidOn: date('paid_on').notNull(),
    period: char('period', { length: 7 }).notNull(),
    amount: integer('amount').notNull(),
    mode: text('mode').notNull(),
    reference: text('reference').notNull().default(''),
    narration: text('narration').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('scheme_installments_month_key').on(t.schemeId, t.period),
    uniqueIndex('scheme_installments_receipt_key').on(t.receiptNo),
    check(
      'scheme_installments_mode_check',
      sql`${t.mode} IN ('cash', 'upi', 'card', 'bank', 'cheque')`,
    ),
    check('scheme_installments_amount_check', sql`${t.amount} > 0`),
  ],
);

/** The last receipt number issued: a locked counter, so receipt numbers have no gaps. */
export const receiptCounter = pgTable('receipt_counter', {
  id: smallint('id').primaryKey(),
  lastNo: bigint('last_no', { mode: 'number' }).notNull(),
});

/** PostgreSQL `bytea`, read and written as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The mobile app's images (banner, card = e-catalogue), kept in the database so that every
 * instance serves them and backups hold them. `storage_key` is the record's PATH: an opaque
 * key, never a file-system path. At most 5 per type, counted under a per-type lock.
 */
export const appImages = pgTable(
  'app_images',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    mime: text('mime').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('app_images_type_idx').on(t.type, t.id),
    check('app_images_type_check', sql`${t.type} IN ('banner', 'card')`),
    check(
      'app_images_mime_check',
      sql`${t.mime} IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')`,
    ),
    check('app_images_size_check', sql`${t.sizeBytes} BETWEEN 1 AND 5242880`),
  ],
);

/** The messaging panel's configuration: one row (id 1). The token is sealed with DATA_KEY. */
export const panelConfig = pgTable(
  'panel_config',
  {
    id: smallint('id').primaryKey(),
    instanceId: text('instance_id').notNull(),
    /** AES-256-GCM with DATA_KEY. */
    tokenSealed: text('token_sealed').notNull(),
    panel: smallint('panel').notNull(),
    phone: varchar('phone', { length: 10 }).notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('panel_config_single_row_check', sql`${t.id} = 1`),
    check('panel_config_panel_check', sql`${t.panel} BETWEEN 1 AND 3`),
  ],
);
