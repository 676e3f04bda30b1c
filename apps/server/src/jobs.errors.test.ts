import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import { connectDatabase, type Database } from './db/client.js';
import { startJobs } from './jobs.js';
import { createTestDatabase, servicesOn, type TestDatabase } from '../test/helpers.js';
import { relayTo } from '../test/proxies.js';

let database: TestDatabase;
let connection: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = connectDatabase(database.url, { max: 4 });
});
afterAll(async () => {
  await connection.close();
  await database.drop();
});

/** A pino logger whose lines are kept, as the server's would be written out. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

/** The jobs, started with no catch-up run soon, writing to `log`. */
const jobsLoggingTo = (log: pino.Logger) =>
  startJobs({
    connectionString: database.url,
    log,
    catchUpAfterSeconds: 3600,
    services: servicesOn(connection, { MESSAGING_RATE: '10' }),
  });

describe('a pg-boss error in the log', () => {
  it('is one short line with the message and code, without the pg client behind it', async () => {
    const { log, lines } = capturedLogger();
    const jobs = await jobsLoggingTo(log);
    const errorLines = () => lines.filter((line) => line.includes('jobs: pg-boss error'));
    try {
      // A database restart, or an operator ending the jobs' sessions: the idle connections of
      // pg-boss's pool fail, and pg-pool hangs the whole client on each error.
      for (const until = Date.now() + 20_000; errorLines().length === 0 && Date.now() < until;) {
        await database.sql(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'kanak-jobs' AND datname = current_database()`,
        );
        await sleep(200);
      }
    } finally {
      await jobs.stop().catch(() => undefined);
    }
    const [line] = errorLines();
    expect(line, lines.join('\n').slice(0, 2000)).toBeDefined();
    const entry = JSON.parse(line!) as { level: number; err?: { message?: string; code?: string } };
    expect(entry.level).toBe(50);
    expect(entry.err?.message).toMatch(/terminat/i);
    expect(entry.err?.code).toBe('57P01');
    expect(line).not.toContain('_connectionCallback');
    expect(line).not.toContain('connectionParameters');
    expect(line).not.toContain('password');
    for (const each of errorLines()) expect(each.length).toBeLessThan(600);
  }, 60_000);

  it("keeps a failed job's statement values (a customer's mobile) out of the line", async () => {
    const { log, lines } = capturedLogger();
    const jobs = await jobsLoggingTo(log);
    try {
      // A real failed statement, handed on as pg-boss hands on a job's failure: the error's
      // own fields spread, with the queue and the worker.
      const failure = await connection.db.execute(sql`SELECT ${'9876543210'}::int`).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(String(failure?.message)).toContain('9876543210');
      jobs.boss.emit('error', {
        ...failure,
        message: failure!.message,
        stack: failure!.stack,
        queue: 'points-expiry',
        worker: 'w-1',
      });
    } finally {
      await jobs.stop();
    }
    const line = lines.find((each) => each.includes('jobs: pg-boss error'));
    expect(line).toBeDefined();
    expect(line).not.toContain('9876543210');
    expect(JSON.parse(line!)).toMatchObject({ err: { queue: 'points-expiry' } });
  }, 60_000);
});

describe('a job settled while the database is away', () => {
  it('leaves no rejection unheard, and runs again once the database is back', async () => {
    const { relay, url: throughUrl } = await relayTo(database.url);
    const boss = new PgBoss({
      connectionString: throughUrl,
      schema: 'settling',
      max: 2,
      maintenanceIntervalSeconds: 1,
      monitorStateIntervalSeconds: 1,
    });
    boss.on('error', () => undefined);
    const unheard: unknown[] = [];
    const hear = (reason: unknown) => unheard.push(reason);
    process.on('unhandledRejection', hear);
    try {
      await boss.start();
      await boss.createQueue('settling');
      await boss.send('settling', {}, { expireInSeconds: 1, retryLimit: 5, retryDelay: 0 });
      let runs = 0;
      let cutDone: Promise<void> | undefined;
      await boss.work('settling', { pollingIntervalSeconds: 0.5 }, async () => {
        runs += 1;
        // The database goes away as the job ends: pg-boss's worker settles it unawaited.
        if (runs === 1) cutDone = relay.cut();
      });
      for (const until = Date.now() + 10_000; !cutDone && Date.now() < until;) await sleep(100);
      expect(cutDone, 'the job ran').toBeDefined();
      await cutDone;
      // The settlement's rejection (connection refused) has come and gone by now.
      await sleep(1_500);
      expect(unheard).toEqual([]);
      await relay.restore();
      for (const until = Date.now() + 30_000; runs < 2 && Date.now() < until;) await sleep(200);
      expect(runs, 'the job, left active, expired and ran again').toBeGreaterThanOrEqual(2);
    } finally {
      process.off('unhandledRejection', hear);
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      await relay.close();
    }
  }, 60_000);
});
