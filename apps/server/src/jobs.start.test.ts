import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { connectDatabase, type Database } from './db/client.js';
import {
  BACKUP_QUEUE,
  EXPIRY_QUEUE,
  MEMBER_PURGE_QUEUE,
  JOBS_SCHEMA,
  NOTICE_REMINDERS_QUEUE,
  TIER_REVIEW_QUEUE,
  NOTICE_SEND_QUEUE,
  ONLINE_RECONCILE_QUEUE,
  startJobs,
  startJobsOnceReachable,
  type JobsOptions,
} from './jobs.js';
import { createTestDatabase, servicesOn } from '../test/helpers.js';
import { relayTo } from '../test/proxies.js';

const ROUNDS = 12;

const jobOptions = (url: string, pool: Database): JobsOptions => ({
  connectionString: url,
  log: pino({ level: 'silent' }),
  services: servicesOn(pool, { MESSAGING_RATE: '10' }),
});
const INSTANCES = 3;

describe('the background jobs, started on several instances at once', () => {
  it(`start on every instance, ${ROUNDS} rounds on new databases, with no deadlock`, async () => {
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A database the jobs have never seen: pg-boss's schema and every queue are made now.
      const fresh = await createTestDatabase();
      const pool = connectDatabase(fresh.url, { max: 4 });
      // No job runs during the round: a run would only make the stop wait.
      const options = { ...jobOptions(fresh.url, pool), catchUpAfterSeconds: 3600 };
      try {
        // Servers restarted together are never started at the same microsecond: the later
        // ones come a moment after, while the first is still making pg-boss's queues.
        const started = await Promise.allSettled(
          Array.from({ length: INSTANCES }, async (_, instance) => {
            if (instance > 0) await sleep(Math.random() * 150);
            return startJobs(options);
          }),
        );
        for (const result of started) {
          if (result.status === 'fulfilled') await result.value.stop();
          else failures.push(`round ${round}: ${String(result.reason)}`);
        }
        // Every instance's queues and schedules, made once.
        expect(
          await fresh.sql(`SELECT name FROM ${JOBS_SCHEMA}.schedule ORDER BY name COLLATE "C"`),
        ).toEqual([
          { name: BACKUP_QUEUE },
          { name: MEMBER_PURGE_QUEUE },
          { name: NOTICE_REMINDERS_QUEUE },
          { name: NOTICE_SEND_QUEUE },
          { name: ONLINE_RECONCILE_QUEUE },
          { name: EXPIRY_QUEUE },
          { name: TIER_REVIEW_QUEUE },
        ]);
      } finally {
        await pool.close();
      }
      // A deadlock that pg-boss swallowed (its own queue's creation) is as much a race as
      // one that failed a start: the instance that lost it merely got lucky.
      await sleep(100);
      const [stats] = await fresh.sql<{ deadlocks: number }>(
        `SELECT deadlocks::int AS deadlocks FROM pg_stat_database WHERE datname = current_database()`,
      );
      if (stats!.deadlocks > 0) failures.push(`round ${round}: ${stats!.deadlocks} deadlock(s)`);
      await fresh.drop();
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('leave no job active when stopped right after the start, ten times over', async () => {
    const database = await createTestDatabase();
    const pool = connectDatabase(database.url, { max: 4 });
    try {
      for (let round = 0; round < 10; round++) {
        const jobs = await startJobs({ ...jobOptions(database.url, pool), catchUpAfterSeconds: 0 });
        await jobs.stop();
      }
      // An active job left behind holds its queue: a stately queue (the notices' sender) runs
      // nothing more until it expires.
      expect(
        await database.sql(`SELECT name FROM ${JOBS_SCHEMA}.job WHERE state = 'active'`),
      ).toEqual([]);
    } finally {
      await pool.close();
      await database.drop();
    }
  }, 120_000);
});

/** A new, empty database reached through a relay that can cut it off, and a pool on it. */
async function databaseBehindRelay() {
  const database = await createTestDatabase({ empty: true });
  const { relay, url } = await relayTo(database.url);
  const pool = connectDatabase(url, { max: 4 });
  return {
    database,
    relay,
    url,
    pool,
    close: async () => {
      await pool.close();
      await relay.close();
      await database.drop();
    },
  };
}

describe('the background jobs of a server whose database is away while they start', () => {
  it('are started again once it is back, instead of failing the start', async () => {
    const { database, relay, url, pool, close } = await databaseBehindRelay();
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const options = { ...jobOptions(url, pool), log, catchUpAfterSeconds: 3600 };
    try {
      await relay.cut();
      const starting = startJobsOnceReachable(options, new AbortController().signal, 100);
      await sleep(1_000);
      await relay.restore();
      const jobs = await starting;
      expect(jobs).toBeDefined();
      await jobs!.stop();
      expect(
        await database.sql(`SELECT name FROM ${JOBS_SCHEMA}.schedule ORDER BY name COLLATE "C"`),
      ).toEqual([
        { name: BACKUP_QUEUE },
        { name: MEMBER_PURGE_QUEUE },
        { name: NOTICE_REMINDERS_QUEUE },
        { name: NOTICE_SEND_QUEUE },
        { name: ONLINE_RECONCILE_QUEUE },
        { name: EXPIRY_QUEUE },
        { name: TIER_REVIEW_QUEUE },
      ]);
      expect(lines.some((line) => line.includes('starting the jobs again shortly'))).toBe(true);
    } finally {
      await close();
    }
  }, 60_000);

  it('give up trying, starting nothing, when the server stops meanwhile', async () => {
    const { relay, url, pool, close } = await databaseBehindRelay();
    const options = { ...jobOptions(url, pool), catchUpAfterSeconds: 3600 };
    try {
      await relay.cut();
      const stopped = new AbortController();
      const starting = startJobsOnceReachable(options, stopped.signal, 100);
      await sleep(500);
      stopped.abort();
      expect(await starting).toBeUndefined();
    } finally {
      await close();
    }
  }, 60_000);
});
