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
import { installmentDueSql } from '../modules/schemes/schemes.due.js';

/**
 * The shop's first branch (the database function `first_branch_id()`, made with the branches
 * migration): the branch of a row whose writer names none, such as a sale posted before the
 * point of sale names its branch. Staff changes always name theirs.
 */
const firstBranchId = sql`first_branch_id()`;

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

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
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('branches_code_check', sql`${t.code} ~ '^[A-Z]{2,6}$'`)],
);

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
    /** The branch the staff member works in; what they record belongs to it. */
    branchId: integer('branch_id')
      .notNull()
      .default(firstBranchId)
      .references(() => branches.id),
    /** A temporary password (a new account, a reset): it must be changed before anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /**
     * When the staff member's latest change was committed, by the primary's clock: with a
     * reports replica, their statements read the primary until the replica has caught up with
     * it, so a statement printed right after a change shows it.
     */
    lastChangeAt: timestamp('last_change_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    check('users_role_check', sql`${t.role} IN ('owner', 'manager', 'cashier')`),
  ],
);

/**
 * Failed sign-ins per username from every address together, kept in the database so every
 * server instance agrees: many of them lock the account for everyone (an attack).
 */
export const loginLockouts = pgTable('login_lockouts', {
  username: text('username').primaryKey(),
  failures: smallint('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/**
 * Failed sign-ins per username and client address: a few lock that address out of that
 * account, and the account's owner signs in from their own counter as before.
 */
export const loginAddressLockouts = pgTable(
  'login_address_lockouts',
  {
    username: text('username').notNull(),
    address: text('address').notNull(),
    failures: smallint('failures').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.username, t.address] })],
);

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

/**
 * Request counts of the per-route rate limits (sign-ins per address, password checks per
 * user), shared by every instance: one row per route and key, counted in one statement.
 * Rows whose window has ended are swept by the index on `window_ends_at`.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_window_ends_at_idx').on(t.windowEndsAt)],
);

/**
 * The turns of large CSV files (customer exports, report CSVs), shared by every instance: a
 * file runs while its transaction holds one of its kind's rows locked (lib/export-slots.ts).
 */
export const exportSlots = pgTable(
  'export_slots',
  {
    kind: text('kind').notNull(),
    slot: integer('slot').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.slot] })],
);

/** Who changed what, and when. Every change of data writes one row, in the change's transaction. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id),
    /** The acting staff member's branch; none for the command line. */
    branchId: integer('branch_id').references(() => branches.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** `{ before, after }`: the changed values, secrets replaced by "(hidden)" when written. */
    detail: jsonb('detail'),
    /** The customer's mobile number when the change concerns a customer (the screen's filter). */
    mobile: text('mobile'),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entity, t.entityId),
    // The Audit screen shows the newest changes first, with or without one filter: each
    // filter has an index in that order, so the first page reads 50 index entries.
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_user_at_idx').on(t.userId, t.at, t.id),
    index('audit_log_entity_at_idx').on(t.entity, t.at, t.id),
    index('audit_log_mobile_at_idx')
      .on(t.mobile, t.at, t.id)
      .where(sql`${t.mobile} IS NOT NULL`),
  ],
);

/**
 * Customers. `points_balance` is the sum of the customer's ledger entries, kept in the same
 * transaction as every entry change (a test checks the two always agree).
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
    pointsBalance: bigint('points_balance', { mode: 'number' }).notNull().default(0),
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
    // Only an erased customer is without a mobile number.
    check(
      'customers_mobileno_erased_check',
      sql`${t.mobileno} IS NOT NULL OR ${t.erasedAt} IS NOT NULL`,
    ),
    // Also in migration 0005, by hand (drizzle cannot declare them): the covering index
    // customers_names_idx (id) INCLUDE (custname, mobileno), and statistics target 1000 on
    // custname. In migration 0021: fillfactor 90, room on each page for the balance's changes.
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
    check(
      'points_entries_one_side_check',
      sql`${t.credit} >= 0 AND ${t.debit} >= 0 AND (${t.credit} = 0 OR ${t.debit} = 0)`,
    ),
    check('points_entries_source_check', sql`${t.source} IN ('M', 'S', 'X', 'R', 'E')`),
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
    // The summary's index, (startdt, id) INCLUDE (customer_id, amount, status), is written in
    // migration 0005 by hand: drizzle cannot declare INCLUDE columns. So are two of the reports
    // migration: (next_due, id) INCLUDE (branch_id, amount, startdt, matdt, installments, paid)
    // WHERE status = 'a', which the overdue report and its totals read alone; And (matdt, id) INCLUDE (branch_id) WHERE status =
    // 'a': the schemes maturing soon, counted by the dashboard from the index alone.
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
    /** The number within the branch's run. */
    receiptNo: bigint('receipt_no', { mode: 'number' }).notNull(),
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
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('scheme_installments_month_key').on(t.schemeId, t.period),
    uniqueIndex('scheme_installments_receipt_key').on(t.branchId, t.receiptNo),
    // The cash book: a day's installments in the order they were recorded.
    index('scheme_installments_day_idx').on(t.paidOn, t.createdAt, t.id),
    check(
      'scheme_installments_mode_check',
      sql`${t.mode} IN ('cash', 'upi', 'card', 'bank', 'cheque')`,
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

/**
 * API keys for machines (a counter's billing system). Only a SHA-256 of the key is kept: the
 * key is 32 random bytes, so a hash cannot be reversed by guessing. Each key posts for one
 * branch (the first branch unless the owner names another): its sales' ledger rows belong there.
 */
export const apiKeys = pgTable('api_keys', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  label: text('label').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  /** Shown in lists so staff can tell keys apart: `kk_` and the first 4 random characters. */
  prefix: text('prefix').notNull(),
  branchId: integer('branch_id')
    .notNull()
    .default(firstBranchId)
    .references(() => branches.id),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedBy: integer('revoked_by').references(() => users.id),
  createdBy: integer('created_by').references(() => users.id),
  createdAt: createdAt(),
});

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
    /** Why it was skipped, or why the last attempt failed (the provider's status, our words). */
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
    check('notices_status_check', sql`${t.status} IN ('queued', 'sent', 'failed', 'skipped')`),
    check('notices_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

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
