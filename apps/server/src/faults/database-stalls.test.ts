import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kanak/contract';
import {
  creditPoints,
  serverBehindRelay,
  type ServerBehindRelay,
} from '../../test/database-faults.js';
import { waitForHealth, type Answer } from '../../test/processes.js';

/**
 * The database stalls: its connections stay open and nothing answers for longer than the
 * server waits for a connection, as when PostgreSQL's processes are stopped (SIGSTOP) or the
 * machine is starved. The server process must live through it: each request is either done
 * once the database answers again or refused with a clear 503, and the same process serves on
 * afterwards. Its log must hold no rejection that nobody listened to (the server's `stop`
 * checks that for every test that starts one).
 */

/**
 * Longer than a request waits for a connection from the pool (5 s), so some are refused, and
 * than the session notices' heartbeat (every 5 s) and the 3 s it waits for one to come back.
 */
const STALL_MS = 9_000;
/** More requests at once than the pool has connections (20). */
const AT_ONCE = 40;
const MOBILENO = '9400000011';
const UNAVAILABLE = { success: false, message: MESSAGES.databaseUnavailable };
let at: ServerBehindRelay;

const credit = (points: number, narration: string): Promise<Answer> =>
  creditPoints(at, MOBILENO, points, narration, 30_000).catch((error: unknown) => ({
    status: 0,
    body: { message: String(error) },
  }));

beforeAll(async () => {
  at = await serverBehindRelay('kanak-fault-stall-', { [MOBILENO]: 'Stalled Customer' });
}, 90_000);

afterAll(() => at?.close());

describe('a database that stops answering for a few seconds', () => {
  it('keeps the server alive, answers each request or a clear 503, and serves on after', async () => {
    // Connections open before the stall: the requests that get one are done once it ends.
    const warm = await Promise.all(Array.from({ length: 8 }, (_, i) => credit(1, `warm ${i}`)));
    expect(warm.map((answer) => answer.status)).toEqual(Array(8).fill(200));

    at.relay.stall();
    let answers: Answer[];
    try {
      const during = Array.from({ length: AT_ONCE }, (_, i) => credit(1 + (i % 9), `during ${i}`));
      await sleep(STALL_MS);
      // Still the same process, past the moment its session notices stopped coming back.
      expect(() => process.kill(at.server.pid, 0)).not.toThrow();
      at.relay.resume();
      answers = await Promise.all(during);
    } finally {
      at.relay.resume();
    }

    const refused = answers.filter((answer) => answer.status === 503);
    const done = answers.filter((answer) => answer.status === 200);
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    for (const answer of refused) expect(answer.body).toEqual(UNAVAILABLE);
    expect(refused.length).toBeGreaterThan(0);
    expect(done.length).toBeGreaterThan(0);

    await waitForHealth(at.server.url, 15_000);
    expect((await credit(7, 'after')).status).toBe(200);

    // Each acknowledged credit once, none of the refused ones, the balance the ledger's sum.
    const acknowledged = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
    const rows = await at.db.sql<{ narration: string }>(
      `SELECT narration FROM points_entries WHERE narration LIKE 'during %' ORDER BY narration`,
    );
    expect(rows.map((row) => row.narration).sort()).toEqual(
      acknowledged.map((i) => `during ${i}`).sort(),
    );
    const [drift] = await at.db.sql<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM customers c JOIN points_accounts a ON a.customer_id = c.id
        WHERE a.balance <>
              (SELECT coalesce(sum(credit - debit), 0) FROM points_entries WHERE customer_id = c.id)`,
    );
    expect(drift!.bad).toBe(0);
    console.info(
      `database-stalls: ${done.length} done and ${refused.length} refused with 503 during a ` +
        `${STALL_MS} ms stall; the same process served on`,
    );
  }, 90_000);
});
