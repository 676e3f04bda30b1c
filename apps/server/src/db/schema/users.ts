import { sql } from 'drizzle-orm';
import type { Role } from '@kanak/contract';
import {
  boolean,
  check,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, firstBranchId } from './columns.js';
import { branches } from './branches.js';

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
