import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/**
 * The shop's first branch (the database function `first_branch_id()`, made with the branches
 * migration): the branch of a row whose writer names none, such as a sale posted before the
 * point of sale names its branch. Staff changes always name theirs.
 */
export const firstBranchId = sql`first_branch_id()`;

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
