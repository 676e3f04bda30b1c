import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { LIMITS } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import type { Db } from '../../db/client.js';
import { endedSessions, loginAddressLockouts } from '../../db/schema.js';

const window = sql`make_interval(mins => ${LIMITS.loginLockMinutes})`;

/** The row's window has passed and no lock holds: its count starts again from nothing. */
const spent = (table: SQL) =>
  sql`(${table}.window_started_at < now() - ${window}
    AND coalesce(${table}.locked_until <= now(), true))`;

/** An attempt's place in its window, and when the lock it falls under ends, if any. */
export interface AttemptCount {
  attempt: number;
  lockedUntil: Date | null;
}

/**
 * Counts an attempt in a lockout table, in one statement, before its password is checked:
 * concurrent attempts on any number of instances queue on the row and each gets its own place.
 * The attempt that reaches `limit` sets the lock; a window that has passed with no lock
 * holding starts afresh.
 */
async function countIn(
  tx: Tx,
  table: 'login_lockouts' | 'login_address_lockouts',
  row: { username: string; address?: string },
  limit: number,
): Promise<AttemptCount> {
  const t = sql.raw(table);
  const restarts = spent(t);
  const [columns, values, key] =
    row.address === undefined
      ? [sql`username`, sql`${row.username}`, sql`username`]
      : [sql`username, address`, sql`${row.username}, ${row.address}`, sql`username, address`];
  const result = await tx.execute<{ attempt: number; locked_until: string | null }>(sql`
    INSERT INTO ${t} (${columns}, failures, window_started_at)
    VALUES (${values}, 1, now())
    ON CONFLICT (${key}) DO UPDATE SET
      failures = CASE WHEN ${restarts} THEN 1 ELSE least(${t}.failures + 1, 32767) END,
      window_started_at = CASE WHEN ${restarts} THEN now() ELSE ${t}.window_started_at END,
      locked_until = CASE WHEN ${restarts} THEN NULL
                          WHEN ${t}.failures + 1 >= ${limit} AND ${t}.locked_until IS NULL
                          THEN now() + ${window}
                          ELSE ${t}.locked_until END
    RETURNING failures AS attempt, locked_until`);
  const counted = result.rows[0]!;
  return {
    attempt: Number(counted.attempt),
    lockedUntil: counted.locked_until ? new Date(counted.locked_until) : null,
  };
}

export const authRepo = {
  /**
   * Counts a sign-in attempt on a username from one address. Only attempts within the limit
   * may have their password checked; a success clears the count (`clearFailures`).
   */
  countAttemptFromAddress(tx: Tx, username: string, address: string) {
    return countIn(tx, 'login_address_lockouts', { username, address }, LIMITS.loginMaxFailures);
  },

  /**
   * Counts a sign-in attempt on a username from any address (those an address's own lock
   * refused are not counted): many in the window lock the account for everyone.
   */
  countAttemptOnAccount(tx: Tx, username: string) {
    return countIn(tx, 'login_lockouts', { username }, LIMITS.loginMaxFailuresFromAllAddresses);
  },

  /** How many addresses have tried the username in the current window: the attack's spread. */
  async addressesTrying(tx: Tx, username: string): Promise<number> {
    const result = await tx.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM login_address_lockouts
       WHERE username = ${username} AND window_started_at >= now() - ${window}`);
    return result.rows[0]?.n ?? 0;
  },

  /**
   * A success: the address starts afresh, and its attempt, counted on the account before the
   * password was checked, is taken back, so the account's count holds failures only.
   */
  async clearFailures(tx: Tx, username: string, address: string): Promise<void> {
    await tx
      .delete(loginAddressLockouts)
      .where(
        and(eq(loginAddressLockouts.username, username), eq(loginAddressLockouts.address, address)),
      );
    await tx.execute(sql`
      UPDATE login_lockouts SET failures = greatest(failures - 1, 0),
             locked_until = CASE WHEN failures - 1 < ${LIMITS.loginMaxFailuresFromAllAddresses}
                                 THEN NULL ELSE locked_until END
       WHERE username = ${username}`);
  },

  /**
   * Deletes the counts whose window has passed with no lock holding (a new attempt would
   * start them afresh anyway): otherwise every username and address ever tried, a stranger's
   * guesses included, would stay in the tables for good.
   */
  async sweepLockouts(db: Db): Promise<void> {
    for (const table of ['login_lockouts', 'login_address_lockouts']) {
      const t = sql.raw(table);
      await db.execute(sql`DELETE FROM ${t} WHERE ${spent(t)}`);
    }
  },

  /**
   * Records a token as ended; false if it already was. Rows of tokens that have expired are
   * cleared on the way: the signature check refuses those by itself. An hour's grace covers
   * a server clock that runs behind the database's.
   */
  async endSession(
    tx: Tx,
    session: { jti: string; userId: number; expiresAt: Date },
  ): Promise<boolean> {
    await tx
      .delete(endedSessions)
      .where(lt(endedSessions.expiresAt, sql`now() - make_interval(hours => 1)`));
    const inserted = await tx
      .insert(endedSessions)
      .values(session)
      .onConflictDoNothing()
      .returning({ jti: endedSessions.jti });
    return inserted.length > 0;
  },
};
