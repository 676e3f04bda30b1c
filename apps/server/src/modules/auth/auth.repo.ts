import { eq, lt, sql } from 'drizzle-orm';
import { LIMITS } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { endedSessions, loginLockouts } from '../../db/schema.js';

const window = sql`make_interval(mins => ${LIMITS.loginLockMinutes})`;

export const authRepo = {
  /** When the username's lock ends, if it is locked now. */
  async lockedUntil(tx: Tx, username: string): Promise<Date | undefined> {
    const [row] = await tx
      .select({ lockedUntil: loginLockouts.lockedUntil })
      .from(loginLockouts)
      .where(sql`${loginLockouts.username} = ${username} AND ${loginLockouts.lockedUntil} > now()`);
    return row?.lockedUntil ?? undefined;
  },

  /**
   * Counts a failure in one statement, so concurrent attempts on several instances count
   * exactly. The fifth failure within the window locks the username for the lock period.
   */
  async recordFailure(tx: Tx, username: string): Promise<void> {
    await tx.execute(sql`
      INSERT INTO login_lockouts (username, failures, window_started_at)
      VALUES (${username}, 1, now())
      ON CONFLICT (username) DO UPDATE SET
        failures = CASE WHEN login_lockouts.window_started_at < now() - ${window}
                        THEN 1 ELSE login_lockouts.failures + 1 END,
        window_started_at = CASE WHEN login_lockouts.window_started_at < now() - ${window}
                                 THEN now() ELSE login_lockouts.window_started_at END,
        locked_until = CASE WHEN login_lockouts.window_started_at >= now() - ${window}
                             AND login_lockouts.failures + 1 >= ${LIMITS.loginMaxFailures}
                            THEN now() + ${window} ELSE login_lockouts.locked_until END`);
  },

  async clearFailures(tx: Tx, username: string): Promise<void> {
    await tx.delete(loginLockouts).where(eq(loginLockouts.username, username));
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
