import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { users } from './users.js';

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
