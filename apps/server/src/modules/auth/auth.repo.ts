import { eq, lt, sql } from 'drizzle-orm';
import { LIMITS } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { endedSessions, loginLockouts } from '../../db/schema.js';

const window = sql`make_interval(mins => ${LIMITS.loginLockMinutes})`;
/** The window has passed and no lock holds: counting starts again. */
const restarts = sql`(login_lockouts.window_started_at < now() - ${window}
  AND coalesce(login_lockouts.locked_until <= now(), true))`;

export const authRepo = {
  /**
   * Counts a sign-in attempt before its password is checked, in one statement, so that
   * concurrent attempts on any number of instances are counted exactly and in order. Answers
   * the attempt's place in the window and when the username's lock ends, if it is locked: the
   * attempt that reaches the limit sets the lock, and only attempts within the limit may have
   * their password checked. A success clears the count (`clearFailures`).
   */
  async countAttempt(
    tx: Tx,
    username: string,
  ): Promise<{ attempt: number; lockedUntil: Date | null }> {
    const result = await tx.execute<{ attempt: number; locked_until: string | null }>(sql`
      INSERT INTO login_lockouts (username, failures, window_started_at)
      VALUES (${username}, 1, now())
      ON CONFLICT (username) DO UPDATE SET
        failures = CASE WHEN ${restarts} THEN 1 ELSE least(login_lockouts.failures + 1, 32767) END,
        window_started_at = CASE WHEN ${restarts} THEN now()
                                 ELSE login_lockouts.window_started_at END,
        locked_until = CASE WHEN ${restarts} THEN NULL
                            WHEN login_lockouts.failures + 1 >= ${LIMITS.loginMaxFailures}
                             AND login_lockouts.locked_until IS NULL
                            THEN now() + ${window}
                            ELSE login_lockouts.locked_until END
      RETURNING failures AS attempt, locked_until`);
    const row = result.rows[0]!;
    return {
      attempt: Number(row.attempt),
      lockedUntil: row.locked_until ? new Date(row.locked_until) : null,
    };
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
