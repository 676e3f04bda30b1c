import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { API_PATHS, API_PREFIX, MESSAGES } from '@kanak/contract';
import {
  creditPoints,
  serverBehindRelay,
  type ServerBehindRelay,
} from '../../test/database-faults.js';
import type { TestDatabase } from '../../test/helpers.js';
import { post, waitForHealth, type Answer, type ServerProcess } from '../../test/processes.js';
import type { TcpRelay } from '../../test/proxies.js';

/**
 * The database away: the server reaches PostgreSQL through a relay that the test
 * cuts for a few seconds. Meanwhile every request gets a clear 503 and /api/health says so;
 * when the relay is back the same server process serves again, and nothing is half-written.
 */

const AWAY_MS = 3_000;
const RECOVERY_BOUND_MS = 15_000;
const MOBILENO = '9400000001';
/** A customer whose row the test holds locked, so an update waits inside its transaction. */
const HELD_MOBILENO = '9400000002';
const UNAVAILABLE = { success: false, message: MESSAGES.databaseUnavailable };
let at: ServerBehindRelay;
let db: TestDatabase;
let relay: TcpRelay;
let server: ServerProcess;
let token: string;

/** What the server was told that worked: every acknowledged update, by narration. */
const acknowledged = new Map<string, number>();

async function credit(points: number, narration: string, mobileno = MOBILENO): Promise<Answer> {
  const answer = await creditPoints(at, mobileno, points, narration);
  if (answer.status === 200) acknowledged.set(narration, points);
  return answer;
}

async function health(): Promise<Answer> {
  const response = await fetch(`${server.url}${API_PREFIX}${API_PATHS.health}`);
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

beforeAll(async () => {
  at = await serverBehindRelay('kanak-fault-away-', {
    [MOBILENO]: 'Away Customer',
    [HELD_MOBILENO]: 'Held Customer',
  });
  ({ db, relay, server, token } = at);
}, 90_000);

afterAll(() => at?.close());

describe('the database going away for a few seconds', () => {
  it('answers a clear 503 meanwhile and serves again by itself when it returns', async () => {
    expect((await credit(100, 'before')).status).toBe(200);

    // A stream of updates keeps running while the database goes: each one either worked
    // (200) or was refused with the 503, never anything else (no answer at all counts as 0).
    let streaming = true;
    const during: Answer[] = [];
    const stream = (async () => {
      for (let i = 0; streaming; i++) {
        during.push(
          await credit(1 + (i % 9), `during ${i}`).catch(() => ({ status: 0, body: {} })),
        );
        await sleep(10);
      }
    })();
    // And one update waits inside its transaction for a row the test holds: the database
    // goes while the server holds that connection between two queries.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM customers WHERE mobileno = $1 FOR UPDATE', [HELD_MOBILENO]);
    const held = credit(40, 'held', HELD_MOBILENO).catch(() => ({ status: 0, body: {} }));
    await sleep(300);

    const seenAway: Answer[] = [];
    let recoveredInMs: number;
    try {
      await relay.cut();
      const awayUntil = Date.now() + AWAY_MS;
      while (Date.now() < awayUntil) {
        seenAway.push(await health());
        seenAway.push(await credit(5, `away ${seenAway.length}`));
        seenAway.push(
          await post(server.url, API_PATHS.customerData, { mobileno: MOBILENO }, { token }),
        );
        await sleep(200);
      }
      // Sign-in needs the database too.
      seenAway.push(
        await post(server.url, API_PATHS.login, {
          USERNAME: 'admin',
          PASSWORD: 'whatever-it-is',
          stayLoggedIn: false,
        }),
      );
      expect(await held).toEqual({ status: 503, body: UNAVAILABLE });
      expect(seenAway.length).toBeGreaterThan(6);
      for (const answer of seenAway) expect(answer).toEqual({ status: 503, body: UNAVAILABLE });

      await relay.restore();
      recoveredInMs = await waitForHealth(server.url, RECOVERY_BOUND_MS);
    } finally {
      streaming = false;
      await stream;
      await holder.end();
    }
    expect(await health()).toEqual({ status: 200, body: { success: true } });
    expect((await credit(7, 'after')).status).toBe(200);

    const unexpected = during.filter(
      (answer) =>
        answer.status !== 200 &&
        !(answer.status === 503 && answer.body.message === MESSAGES.databaseUnavailable),
    );
    expect(unexpected).toEqual([]);
    expect(during.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);

    // Nothing half-written: the acknowledged updates each once, the balances their sums,
    // every entry with its audit row; nothing of the calls refused while the database was away.
    const entries = await db.sql<{ narration: string; audits: number }>(
      `SELECT e.narration,
              (SELECT count(*)::int FROM audit_log a
                WHERE a.entity = 'points_entry' AND a.entity_id = e.mrn::text) AS audits
         FROM points_entries e ORDER BY e.mrn`,
    );
    const narrations = entries.map((entry) => entry.narration);
    expect(new Set(narrations).size).toBe(narrations.length);
    for (const narration of acknowledged.keys()) expect(narrations).toContain(narration);
    expect(narrations.filter((n) => n.startsWith('away') || n === 'held')).toEqual([]);
    expect(entries.filter((entry) => entry.audits !== 1)).toEqual([]);
    const [drift] = await db.sql<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM customers c JOIN points_accounts a ON a.customer_id = c.id
        WHERE a.balance <>
              (SELECT coalesce(sum(credit - debit), 0) FROM points_entries WHERE customer_id = c.id)`,
    );
    expect(drift!.bad).toBe(0);

    console.info(
      `database-away: ${seenAway.length} answers while away, all 503; stream: ` +
        `${during.filter((a) => a.status === 200).length} done, ` +
        `${during.filter((a) => a.status === 503).length} refused with 503; ` +
        `healthy again ${recoveredInMs} ms after the database returned`,
    );
  }, 60_000);
});
