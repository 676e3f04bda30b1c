import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * Every backup made or tried: by the daily schedule, "Back up now" or `npm run backup`. A row
 * is written `running` once the backup holds its lock, and becomes `good` only once its file
 * was read back, checked and renamed into place; a failure keeps its reason. A row left
 * `running` by a process that died is marked failed by the next backup.
 */
export const backups = pgTable(
  'backups',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The file's name in its folder; none when it failed before a file was named. */
    fileName: text('file_name'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    durationMs: integer('duration_ms'),
    result: text('result').notNull(),
    reason: text('reason'),
    trigger: text('trigger').notNull(),
    /** Who pressed "Back up now"; none for the schedule and the command line. */
    userId: integer('user_id').references(() => users.id),
  },
  (t) => [
    check('backups_result_check', sql`${t.result} IN ('running', 'good', 'failed')`),
    check('backups_trigger_check', sql`${t.trigger} IN ('schedule', 'browser', 'command')`),
    check(
      'backups_good_has_file_check',
      sql`${t.result} <> 'good' OR (${t.fileName} IS NOT NULL AND ${t.sizeBytes} IS NOT NULL AND ${t.finishedAt} IS NOT NULL)`,
    ),
    // The dashboard asks for the last good one on every visit.
    index('backups_good_idx')
      .on(t.startedAt.desc())
      .where(sql`${t.result} = 'good'`),
  ],
);

/**
 * Single-use links for the browser's own download of one backup file: only a SHA-256 of the
 * random ticket is kept, and the session it was made in must still be valid when it is used.
 */
export const backupTickets = pgTable(
  'backup_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    backupId: integer('backup_id')
      .notNull()
      .references(() => backups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenVersion: integer('token_version').notNull(),
    jti: text('jti'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('backup_tickets_expires_at_idx').on(t.expiresAt)],
);
