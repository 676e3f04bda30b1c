import {
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

/**
 * Tables of the server's own request machinery, each owned by the plugin or lib file that
 * writes it: idempotency keys (plugins/idempotency.ts), rate limits (plugins/rate-limit-store.ts)
 * and the turns of large CSV files (lib/export-slots.ts).
 */

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
