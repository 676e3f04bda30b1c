import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, firstBranchId } from './columns.js';
import { branches } from './branches.js';
import { users } from './users.js';

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
