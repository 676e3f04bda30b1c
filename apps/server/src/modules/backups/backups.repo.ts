import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { BackupResult, BackupTrigger } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { backups, backupTickets, users } from '../../db/schema.js';

const entry = {
  id: backups.id,
  startedAt: backups.startedAt,
  finishedAt: backups.finishedAt,
  fileName: backups.fileName,
  sizeBytes: backups.sizeBytes,
  durationMs: backups.durationMs,
  result: backups.result,
  reason: backups.reason,
  trigger: backups.trigger,
  by: users.username,
};

export type BackupRow = {
  id: number;
  startedAt: Date;
  finishedAt: Date | null;
  fileName: string | null;
  sizeBytes: number | null;
  durationMs: number | null;
  result: BackupResult;
  reason: string | null;
  trigger: BackupTrigger;
  by: string | null;
};

export const backupsRepo = {
  /** A backup that holds the lock and is being written. */
  async insertRunning(
    tx: Tx,
    values: { startedAt: Date; trigger: BackupTrigger; userId: number | null },
  ): Promise<number> {
    const [row] = await tx
      .insert(backups)
      .values({ ...values, result: 'running' })
      .returning({ id: backups.id });
    return row!.id;
  },

  /** A backup that failed before it held the lock (its folder could not be made). */
  async insertFailed(
    tx: Tx,
    values: {
      startedAt: Date;
      finishedAt: Date;
      durationMs: number;
      trigger: BackupTrigger;
      userId: number | null;
      reason: string;
    },
  ): Promise<number> {
    const [row] = await tx
      .insert(backups)
      .values({ ...values, result: 'failed' })
      .returning({ id: backups.id });
    return row!.id;
  },

  async finish(
    tx: Tx,
    id: number,
    values: {
      result: 'good' | 'failed';
      finishedAt: Date;
      durationMs: number;
      fileName?: string | null;
      sizeBytes?: number | null;
      reason?: string | null;
    },
  ) {
    await tx.update(backups).set(values).where(eq(backups.id, id));
  },

  /**
   * Rows still `running` once a new backup holds the lock: their process died or lost the
   * database before it could say how it ended.
   */
  async failInterrupted(tx: Tx, reason: string, finishedAt: Date) {
    await tx
      .update(backups)
      .set({ result: 'failed', reason, finishedAt })
      .where(eq(backups.result, 'running'));
  },

  async page(tx: Tx, offset: number, limit: number): Promise<BackupRow[]> {
    const rows = await tx
      .select(entry)
      .from(backups)
      .leftJoin(users, eq(users.id, backups.userId))
      .orderBy(desc(backups.startedAt), desc(backups.id))
      .offset(offset)
      .limit(limit);
    return rows as BackupRow[];
  },

  async byId(tx: Tx, id: number): Promise<BackupRow | undefined> {
    const [row] = await tx
      .select(entry)
      .from(backups)
      .leftJoin(users, eq(users.id, backups.userId))
      .where(eq(backups.id, id));
    return row as BackupRow | undefined;
  },

  async total(tx: Tx): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(backups);
    return row?.n ?? 0;
  },

  /** When the last good backup began, if any. */
  async lastGoodAt(tx: Tx): Promise<Date | undefined> {
    const [row] = await tx
      .select({ startedAt: backups.startedAt })
      .from(backups)
      .where(eq(backups.result, 'good'))
      .orderBy(desc(backups.startedAt))
      .limit(1);
    return row?.startedAt;
  },

  /** Seconds since the last good backup began, by the database's clock; none without one. */
  async lastGoodAgeSeconds(tx: Tx): Promise<number | undefined> {
    const { rows } = await tx.execute<{ age: number | null }>(
      sql`SELECT extract(epoch FROM now() - max(${backups.startedAt}))::float8 AS age
            FROM ${backups} WHERE ${backups.result} = 'good'`,
    );
    return rows[0]?.age ?? undefined;
  },

  /** Whether a good backup began at or after `since`. */
  async goodSince(tx: Tx, since: Date): Promise<boolean> {
    const [row] = await tx
      .select({ id: backups.id })
      .from(backups)
      .where(and(eq(backups.result, 'good'), gte(backups.startedAt, since)))
      .limit(1);
    return row !== undefined;
  },

  /** Whether any session holds the backups' lock now: a backup is being written. */
  async locked(tx: Tx, key: number): Promise<boolean> {
    const { rows } = await tx.execute<{ held: boolean }>(
      sql`SELECT EXISTS (
            SELECT 1 FROM pg_locks
             WHERE locktype = 'advisory' AND granted AND database = (
                   SELECT oid FROM pg_database WHERE datname = current_database())
               AND classid = 0 AND objid = ${key} AND objsubid = 1) AS held`,
    );
    return rows[0]?.held === true;
  },
};

export const backupTicketsRepo = {
  /** Expires by the database's clock, which also judges it when it is used. */
  async insert(
    tx: Tx,
    values: Omit<typeof backupTickets.$inferInsert, 'expiresAt'>,
    lifetimeSeconds: number,
  ) {
    await tx
      .insert(backupTickets)
      .values({ ...values, expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})` });
  },

  /** Tickets past their expiry can no longer be used; they go when the next one is made. */
  async deleteExpired(tx: Tx) {
    await tx.delete(backupTickets).where(lt(backupTickets.expiresAt, sql`now()`));
  },

  /**
   * Takes the ticket out in one statement, so of two requests with the same ticket at the same
   * moment only one gets it back.
   */
  async take(tx: Tx, ticketHash: string) {
    const [row] = await tx
      .delete(backupTickets)
      .where(eq(backupTickets.ticketHash, ticketHash))
      .returning({
        backupId: backupTickets.backupId,
        userId: backupTickets.userId,
        tokenVersion: backupTickets.tokenVersion,
        jti: backupTickets.jti,
        expired: sql<boolean>`${backupTickets.expiresAt} <= now()`,
      });
    return row;
  },
};
