import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUser,
  appOnDatabase,
  authed,
  createTestDatabase,
  login,
  NO_PROVIDER,
  pointsBalance,
  TEST_SECRETS,
  type TestDatabase,
} from '../../test/helpers.js';
import { connectDatabase, type Database } from '../db/client.js';
import { EXPIRY_QUEUE, JOBS_SCHEMA } from '../jobs.js';

/**
 * `npm run job -- <name> [--as-of YYYY-MM-DD]` run for real, as a child process on a database
 * of its own: the points expiry for the day named, through the job's own queue, waiting while
 * another run of it holds the queue; a wrong name or option exits 2 with the job names.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ASHA = '9810000051';

interface Run {
  code: Promise<number>;
  output(): string;
}

/** Starts `npm run job -- …args` on `url` (as npm runs it: tsx, from the source). */
async function job(url: string, args: string[]): Promise<Run> {
  let output = '';
  const child = spawn(
    'npx',
    ['tsx', '--conditions=@kanak/source', 'apps/server/src/cli/job.ts', ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...NO_PROVIDER,
        DATABASE_URL: url,
        DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-job-')),
        JWT_SECRET: TEST_SECRETS.jwtSecret,
        DATA_KEY: TEST_SECRETS.dataKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const code = new Promise<number>((resolve) =>
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode ?? -1);
    }),
  );
  return { code, output: () => output };
}

const finished = async (run: Promise<Run>) => {
  const started = await run;
  return { code: await started.code, output: started.output() };
};

describe('npm run job', () => {
  let database: TestDatabase;
  let connection: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase();
    connection = connectDatabase(database.url, { max: 4 });
    // The counter's sale is entered on 15 June 2025; its lot expires two years after the
    // invoice, on 1 June 2025, and nothing has expired it yet.
    app = await appOnDatabase(connection, {}, () => new Date('2025-06-15T12:00:00+05:30'));
    const ctx = {
      app,
      database: connection,
      sql: async (text: string, values?: unknown[]) =>
        (await connection.pool.query(text, values)).rows,
      close: async () => {},
    };
    await addUser(ctx, 'owner1', 'Kanak@1928x', 'owner');
    const owner = await login(ctx, 'owner1', 'Kanak@1928x');
    const call = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
      const response = await app.inject({
        ...authed(owner, { method: 'POST', url, payload: payload as InjectOptions['payload'] }),
        ...(headers['x-api-key'] ? { headers } : {}),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { key: string } }>();
    };
    const { key } = (await call('/api/settings/api-keys', { label: 'Counter 1' })).data;
    await call(
      '/api/pos/sales',
      {
        invoiceNo: 'S-1',
        invoiceDate: '2023-06-01',
        mobile: ASHA,
        name: 'Asha Rao',
        lines: [{ description: 'Ring', category: 'gold', amount: 30_000 }],
      },
      { 'x-api-key': key },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await connection?.close();
    await database?.drop();
  });

  const expiredRows = async () =>
    (
      await database.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM points_entries WHERE ts = 'E'`,
      )
    )[0]!.n;
  const commandRuns = (state: string) =>
    database.sql<{ id: string }>(
      `SELECT id FROM ${JOBS_SCHEMA}.job
        WHERE name = $1 AND data->>'reason' = 'command' AND state = $2`,
      [EXPIRY_QUEUE, state],
    );

  it('expires the lots due by the day --as-of names, through the job’s own queue', async () => {
    expect(await pointsBalance(database, ASHA)).toBe(300);
    // The day before the lot's expiry: nothing is due.
    const before = await finished(job(database.url, [EXPIRY_QUEUE, '--as-of', '2025-05-31']));
    expect(before.code, before.output).toBe(0);
    expect(before.output).toContain('points-expiry for 31/05/2025: done');
    expect(await expiredRows()).toBe(0);
    expect(await pointsBalance(database, ASHA)).toBe(300);

    const due = await finished(job(database.url, [EXPIRY_QUEUE, '--as-of', '2025-06-01']));
    expect(due.code, due.output).toBe(0);
    expect(due.output).toContain('points-expiry for 01/06/2025: done');
    expect(await expiredRows()).toBe(1);
    expect(await pointsBalance(database, ASHA)).toBe(0);
    const [lot] = await database.sql<{ remaining: number }>(`SELECT remaining FROM points_lots`);
    expect(lot!.remaining).toBe(0);
    // Both runs were jobs of the expiry's queue, taken and completed there.
    expect(await commandRuns('completed')).toHaveLength(2);
  }, 120_000);

  it('waits while another run of the job holds its queue, then runs', async () => {
    // A run of the schedule's under way: taken from the queue by a worker, not yet done.
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema: JOBS_SCHEMA,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    try {
      await boss.send(EXPIRY_QUEUE, { reason: 'schedule' });
      const [held] = await boss.fetch(EXPIRY_QUEUE);
      expect(held).toBeDefined();

      const run = await job(database.url, [EXPIRY_QUEUE]);
      await expect
        .poll(() => run.output(), { timeout: 60_000, interval: 200 })
        .toContain('Another run of points-expiry is under way; waiting for it to end');
      // Still waiting a moment later: its own run is not taken while the other is active.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await commandRuns('active')).toHaveLength(0);
      expect(await commandRuns('created')).toHaveLength(1);

      await boss.complete(EXPIRY_QUEUE, held!.id);
      expect(await run.code, run.output()).toBe(0);
      expect(run.output()).toMatch(/points-expiry for \d\d\/\d\d\/\d{4}: done/);
      expect(await commandRuns('completed')).toHaveLength(3);
    } finally {
      await boss.stop({ graceful: false });
      await pool.end();
    }
  }, 120_000);

  it('refuses an unknown name, --as-of on a job that takes no day, and a day to come, with exit 2', async () => {
    const unknown = await finished(job(database.url, ['points-expire']));
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('No job is named "points-expire".');
    for (const name of [
      'points-expiry',
      'tiers-anniversary',
      'notices-send',
      'notices-reminders',
      'online-reconcile',
      'members-purge',
    ])
      expect(unknown.output).toContain(`  ${name}`);

    const dayless = await finished(job(database.url, ['members-purge', '--as-of', '2025-06-01']));
    expect(dayless.code).toBe(2);
    expect(dayless.output).toContain('members-purge works on no particular day');

    const later = await finished(job(database.url, [EXPIRY_QUEUE, '--as-of', '2999-01-01']));
    expect(later.code).toBe(2);
    expect(later.output).toContain('is after today');
    const [nothing] = await database.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE data->>'asOf' = '2999-01-01'`,
    );
    expect(nothing!.n).toBe(0);
  }, 120_000);
});
