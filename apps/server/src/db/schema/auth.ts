import {
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

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
