import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { API_PATHS, MESSAGES } from '@kanak/contract';
import {
  addCustomer,
  post,
  signIn,
  startServer,
  storeToday,
  tempDir,
  type ServerProcess,
} from '../../test/processes.js';

/**
 * `kill -9`: the server on its embedded PostgreSQL takes a stream of points
 * updates; at a random moment both the server and the postmaster are killed outright. The
 * server must start again on the same DATA_DIR with no manual step, and every acknowledged
 * update must be there exactly once, with nothing half-written.
 */

const RESTART_BOUND_MS = 30_000;
const WORKERS = 4; // one customer each: three streams side by side with the first

let dir: ReturnType<typeof tempDir>;
let server: ServerProcess;
let token: string;
const mobiles: string[] = [];

interface Sent {
  narration: string;
  key: string;
  body: object;
  acknowledged: boolean;
}
const sent: Sent[] = [];

function postmasterPid(): number {
  const pidFile = path.join(dir.path, 'pg', 'postmaster.pid');
  return Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
}

/** The embedded database, reached as the server reaches it (password and port from DATA_DIR). */
async function query<T>(text: string, values?: unknown[]): Promise<T[]> {
  const { embeddedDbPassword } = JSON.parse(
    readFileSync(path.join(dir.path, 'secrets.json'), 'utf8'),
  ) as { embeddedDbPassword: string };
  const port = readFileSync(path.join(dir.path, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3];
  const client = new pg.Client({
    connectionString: `postgres://postgres:${encodeURIComponent(embeddedDbPassword)}@127.0.0.1:${port}/kanak`,
  });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * One customer's stream: credits, and now and then a deduction the acknowledged balance
 * covers. It stops at the first call that is not acknowledged: no answer (the server is
 * gone) or the 503 of a server whose database is gone. Any other answer is a problem.
 */
async function stream(round: number, worker: number, run: Run) {
  let balance = 0;
  for (let i = 0; !run.stopped; i++) {
    const deduct = balance > 10 && i % 3 === 2;
    const points = deduct ? Math.floor(balance / 2) : 10 + ((i * 7) % 90);
    const narration = `kill r${round} w${worker} #${i}`;
    const body = {
      formData: {
        MOBILENO: mobiles[worker],
        POINTS: String(points),
        CASHCR: deduct ? 'DB' : 'CR',
        INVDATE: storeToday(),
        NARRATION: narration,
      },
    };
    const record: Sent = { narration, key: randomUUID(), body, acknowledged: false };
    sent.push(record);
    const answer = await post(server.url, API_PATHS.updatePoints, body, {
      token,
      idempotencyKey: record.key,
      timeoutMs: 5_000,
    }).catch(() => undefined);
    if (!answer) return;
    if (answer.status === 503 && answer.body.message === MESSAGES.databaseUnavailable) return;
    if (answer.status !== 200 || answer.body.message !== MESSAGES.pointsUpdated) {
      run.problems.push(`${narration}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
      return;
    }
    record.acknowledged = true;
    run.acknowledged += 1;
    balance += deduct ? -points : points;
  }
}

interface Run {
  acknowledged: number;
  stopped: boolean;
  problems: string[];
}

/**
 * Streams updates and, once `killAfter` of them are acknowledged plus a random few
 * milliseconds (so that the kill lands inside requests), kills the server and the
 * postmaster; then restarts the server on the same DATA_DIR.
 */
async function killDuringStream(round: number, killAfter: number) {
  const run: Run = { acknowledged: 0, stopped: false, problems: [] };
  const streams = Array.from({ length: WORKERS }, (_, worker) => stream(round, worker, run));
  const deadline = Date.now() + 30_000;
  while (run.acknowledged < killAfter && Date.now() < deadline) await sleep(5);
  await sleep(Math.random() * 20);
  const postmaster = postmasterPid();
  process.kill(postmaster, 'SIGKILL');
  await server.kill9();
  run.stopped = true;
  await Promise.all(streams);
  expect(run.problems).toEqual([]);
  expect(run.acknowledged, `round ${round}: acknowledged before the kill`).toBeGreaterThanOrEqual(
    killAfter,
  );

  const started = Date.now();
  server = await startServer({ dataDir: dir.path, healthTimeoutMs: RESTART_BOUND_MS });
  const restartMs = Date.now() - started;
  expect(restartMs).toBeLessThan(RESTART_BOUND_MS);
  expect(postmasterPid()).not.toBe(postmaster);
  token = await signIn(server.url);
  return restartMs;
}

/** Every acknowledged update once, nothing half-written, nothing we did not send. */
async function expectLedgerIntact() {
  const rows = await query<{ narration: string; copies: number; audits: number }>(
    `SELECT e.narration, count(*)::int AS copies,
            (SELECT count(*)::int FROM audit_log a
              WHERE a.entity = 'points_entry' AND a.entity_id = min(e.mrn)::text) AS audits
       FROM points_entries e GROUP BY e.narration`,
  );
  const found = new Map(rows.map((row) => [row.narration, row]));
  for (const call of sent) {
    const row = found.get(call.narration);
    if (call.acknowledged) expect(row?.copies, call.narration).toBe(1);
    else expect([undefined, 1], call.narration).toContain(row?.copies);
    if (row) expect(row.audits, `audit row of ${call.narration}`).toBe(1);
  }
  const ours = new Set(sent.map((call) => call.narration));
  expect(rows.filter((row) => !ours.has(row.narration))).toEqual([]);

  const balances = await query<{ mobileno: string; balance: number; ledger: number }>(
    `SELECT c.mobileno, a.balance,
            coalesce(sum(e.credit - e.debit), 0)::bigint AS ledger
       FROM customers c JOIN points_accounts a ON a.customer_id = c.id
       LEFT JOIN points_entries e ON e.customer_id = c.id
      GROUP BY c.id, a.balance`,
  );
  for (const row of balances) expect(row.balance, row.mobileno).toBe(row.ledger);
}

beforeAll(async () => {
  dir = tempDir('kanak-fault-kill-');
  server = await startServer({ dataDir: dir.path });
  token = await signIn(server.url);
  for (let worker = 0; worker < WORKERS; worker++) {
    const mobileno = `92000000${String(worker).padStart(2, '0')}`;
    await addCustomer(server.url, token, mobileno, `Stream Customer ${worker}`);
    mobiles.push(mobileno);
  }
}, 90_000);

afterAll(async () => {
  await server?.stop(); // stops its PostgreSQL too
  dir?.remove();
});

describe('kill -9 of the server and its PostgreSQL during a stream of points updates', () => {
  it('restarts without a manual step and keeps every acknowledged update exactly once', async () => {
    const restarts: number[] = [];
    for (const [round, killAfter] of [
      [1, 15 + Math.floor(Math.random() * 20)],
      [2, 5 + Math.floor(Math.random() * 10)],
    ] as const) {
      restarts.push(await killDuringStream(round, killAfter));
      await expectLedgerIntact();
    }

    // Retrying what got no answer, with the same key, never makes a second entry.
    const unanswered = sent.filter((call) => !call.acknowledged);
    const retries = await Promise.all(
      unanswered.map((call) =>
        post(server.url, API_PATHS.updatePoints, call.body, { token, idempotencyKey: call.key }),
      ),
    );
    for (const answer of retries) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body.message).toBe(MESSAGES.idempotencyInProgress);
    }
    for (const [i, call] of unanswered.entries()) {
      if (retries[i]!.status === 200) call.acknowledged = true;
    }
    await expectLedgerIntact();
    const stuck = unanswered.filter((_, i) => retries[i]!.status === 409);
    const inLedger = await query<{ narration: string }>(
      `SELECT narration FROM points_entries WHERE narration = ANY($1)`,
      [stuck.map((call) => call.narration)],
    );
    console.info(
      `kill-9: ${sent.length} updates sent, ${unanswered.length} unanswered at the kills; ` +
        `retried: ${retries.filter((a) => a.status === 200).length} done or replayed, ` +
        `${stuck.length} "still being processed" (${inLedger.length} of them in the ledger); ` +
        `restarts took ${restarts.join(' ms, ')} ms`,
    );
  }, 120_000);
});
