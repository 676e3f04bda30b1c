import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { API_PATHS, API_PREFIX } from '@kanak/contract';
import { createTestDatabase, pointsBalance, type TestDatabase } from '../../test/helpers.js';
import {
  addCustomer,
  post,
  signIn,
  startServer,
  storeToday,
  tempDir,
} from '../../test/processes.js';

/**
 * A stop (SIGTERM) has a deadline: a request that never finishes, a client that sends half a
 * request or a query waiting on a row lock, cannot keep the process alive. After STOP_TIMEOUT
 * seconds its connection is cut, the embedded PostgreSQL is stopped and the process exits.
 */

const STOP_TIMEOUT_SECONDS = 2;
// The deadline, stopping PostgreSQL and tsx's own exit; far below the hung request's own limits
// (Node's headersTimeout of 60 s; a row lock is waited for without end).
const EXIT_BOUND_MS = 9_000;

const dirs: ReturnType<typeof tempDir>[] = [];
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
  for (const dir of dirs) dir.remove();
});

function processAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => Promise<boolean> | boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('a stop with a hung request', () => {
  it('a client that sent half a request: exits within the deadline and stops its PostgreSQL', async () => {
    const dir = tempDir('kanak-stop-deadline-');
    dirs.push(dir);
    const server = await startServer({
      dataDir: dir.path,
      env: { STOP_TIMEOUT: String(STOP_TIMEOUT_SECONDS) },
    });
    const postmaster = Number(
      readFileSync(path.join(dir.path, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    // The request line and one header, never the blank line that ends the headers.
    socket.write(`GET ${API_PREFIX}${API_PATHS.health} HTTP/1.1\r\nHost: kanak.test\r\n`);
    await sleep(200);

    const started = Date.now();
    await server.stop();
    const took = Date.now() - started;
    socket.destroy();

    expect(took, server.logTail()).toBeGreaterThanOrEqual(STOP_TIMEOUT_SECONDS * 1000 - 100);
    expect(took, server.logTail()).toBeLessThan(EXIT_BOUND_MS);
    expect(server.logTail()).toMatch(/requests still running at the deadline/);
    expect(processAlive(postmaster)).toBe(false);
  }, 60_000);

  it('a points update waiting on a row lock: exits within the deadline; nothing is saved', async () => {
    database = await createTestDatabase();
    const dir = tempDir('kanak-stop-lock-');
    dirs.push(dir);
    const server = await startServer({
      dataDir: dir.path,
      env: { DATABASE_URL: database.url, STOP_TIMEOUT: String(STOP_TIMEOUT_SECONDS) },
    });
    const token = await signIn(server.url);
    const mobileno = '9300000011';
    await addCustomer(server.url, token, mobileno, 'Locked Customer');

    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM customers WHERE mobileno = $1 FOR UPDATE', [mobileno]);
      const update = post(
        server.url,
        API_PATHS.updatePoints,
        {
          formData: { MOBILENO: mobileno, POINTS: '25', CASHCR: 'CR', INVDATE: storeToday() },
        },
        { token, timeoutMs: 30_000 },
      ).catch((error: Error) => error);
      await until(
        async () =>
          (
            await database!.sql(
              `SELECT 1 FROM pg_stat_activity
               WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).length > 0,
        'the update to wait for the lock',
      );

      const started = Date.now();
      await server.stop();
      const took = Date.now() - started;
      expect(took, server.logTail()).toBeLessThan(EXIT_BOUND_MS);
      expect(server.logTail()).toMatch(/requests still running at the deadline/);
      // The client saw its connection cut, not an answer: it may send the update again.
      expect(await update).toBeInstanceOf(Error);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    // The cut connection's transaction was rolled back by PostgreSQL.
    await until(
      async () =>
        (
          await database!.sql(
            `SELECT 1 FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = 'kanak'`,
          )
        ).length === 0,
      'the server process to leave the database',
    );
    expect(await pointsBalance(database, mobileno)).toBe(0);
  }, 60_000);
});
