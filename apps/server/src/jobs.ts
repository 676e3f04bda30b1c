import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db } from './db/client.js';
import { errorInBrief } from './lib/logging.js';
import { isDatabaseUnavailable } from './lib/pg-errors.js';
import type { NoticeSenderTimings, Services } from './services.js';

/**
 * pg-boss 10's worker settles each job with `this.complete(…)` or `this.fail(…)` and neither
 * awaits nor catches the call (its manager's `work`): a database lost at that moment leaves a
 * rejection nobody hears. Each call's promise is marked as listened to here, and still
 * rejects for whoever awaits it; the job, left active, expires and runs again, which every
 * job of ours is safe to do.
 */
function hearJobSettlements() {
  type Settle = (this: unknown, ...args: unknown[]) => Promise<unknown>;
  const manager = createRequire(import.meta.url)('pg-boss/src/manager.js') as {
    prototype: Record<'complete' | 'fail', Settle>;
  };
  for (const name of ['complete', 'fail'] as const) {
    const settle = manager.prototype[name];
    manager.prototype[name] = function (this: unknown, ...args: unknown[]) {
      const settled = settle.apply(this, args);
      settled.catch(() => undefined);
      return settled;
    };
  }
}
hearJobSettlements();

/** The queue of the daily look at tiers whose anniversary has come. */
export const TIER_REVIEW_QUEUE = 'tiers-anniversary';
/** Online installments' orders left open, asked after at the gateway. */
export const ONLINE_RECONCILE_QUEUE = 'online-reconcile';
/** Every 10 minutes. */
const ONLINE_RECONCILE_CRON = '*/10 * * * *';
/** The queue of the daily points expiry. */
export const MEMBER_PURGE_QUEUE = 'members-purge';
const MEMBER_PURGE_CRON = '45 0 * * *';

export const EXPIRY_QUEUE = 'points-expiry';
/** The sender of notices to customers: every minute, and whenever a notice is queued. */
export const NOTICE_SEND_QUEUE = 'notices-send';
/** The day's reminders and digests to customers. */
export const NOTICE_REMINDERS_QUEUE = 'notices-reminders';
/** pg-boss keeps its tables in a schema of its own. */
export const JOBS_SCHEMA = 'pgboss';
/** Daily at 00:30 store time. */
const EXPIRY_CRON = '30 0 * * *';
/** Daily at 00:15 store time: the day's anniversaries, once the date has turned. */
const TIER_REVIEW_CRON = '15 0 * * *';
/** Every minute: notices queued while no nudge reached the sender, and retries coming due. */
const NOTICE_SEND_CRON = '* * * * *';
/** Daily at 08:00 store time: queued before the day's hours open (9:00), sent from then. */
const NOTICE_REMINDERS_CRON = '0 8 * * *';
/** After every start, once this soon: a server switched off at night catches up. */
const CATCH_UP_AFTER_SECONDS = 30;

export interface JobsOptions {
  connectionString: string;
  log: Pick<FastifyBaseLogger, 'info' | 'error' | 'warn'>;
  /** The process's services (see createServices): the jobs run theirs. */
  services: Pick<
    Services,
    'config' | 'db' | 'today' | 'background' | 'members' | 'memberPayments'
  >;
  catchUpAfterSeconds?: number;
  /** The sender's timings, for tests. */
  sender?: NoticeSenderTimings;
}

/** How long a start that met an unreachable database waits before it tries again. */
const START_RETRY_MS = 2_000;

/** A background job: its queue, when it runs, how pg-boss keeps it, and what it does. */
interface Job {
  queue: string;
  /** When it runs, in the store's time zone. */
  cron: string;
  policy: Omit<PgBoss.Queue, 'name'>;
  /**
   * Sent at every start too: `now`, or once a little later with one catch-up at a time (a
   * server switched off at night catches up).
   */
  atStart: 'now' | 'catch-up';
  /** One run; `again` asks for the next one at once or after the given seconds. */
  run(again: (afterSeconds?: number) => Promise<void>): Promise<void>;
  stop?(): void;
}

/** A daily job, safe to repeat: one run at a time, retried with backoff for two hours. */
const DAILY_POLICY: Job['policy'] = {
  policy: 'singleton',
  retryLimit: 5,
  retryDelay: 60,
  retryBackoff: true,
  expireInHours: 2,
};

/**
 * The background jobs on PostgreSQL (pg-boss 10), in their own schema made at the first start:
 * - the points expiry, daily at 00:30 store time and once soon after every start; a singleton
 *   queue, so a scheduled run and a catch-up never run at once, and the expiry itself is safe
 *   to repeat (see expireDueLots);
 * - the tiers' anniversaries, daily at 00:15 store time and once soon after every start; safe
 *   to repeat (see reviewTierAnniversaries);
 * - the sender of notices to customers, every minute and when nudged; a 'stately' queue (one
 *   run at a time across every process, one more waiting, further nudges dropped);
 * - the reminders and digests, daily at 08:00 store time and once soon after every start, safe
 *   to repeat (see queueReminders);
 * - the online orders left open, asked after at the gateway every 10 minutes;
 * - the purge of customers' dead sign-in codes and sessions and old webhook delivery ids,
 *   daily at 00:45 store time and once soon after every start (see purgeExpired).
 */
function jobsOf(options: JobsOptions): Job[] {
  const { log, services } = options;
  const { today, background } = services;
  const sender = background.noticeSender(log, options.sender);
  return [
    {
      queue: EXPIRY_QUEUE,
      cron: EXPIRY_CRON,
      policy: DAILY_POLICY,
      atStart: 'catch-up',
      async run() {
        const result = await background.expirePoints(today());
        log.info({ today: today(), ...result }, 'jobs: points expiry done');
      },
    },
    {
      queue: TIER_REVIEW_QUEUE,
      cron: TIER_REVIEW_CRON,
      policy: DAILY_POLICY,
      atStart: 'catch-up',
      async run() {
        const result = await background.reviewTiers(today());
        log.info({ today: today(), ...result }, 'jobs: tier anniversaries done');
      },
    },
    {
      queue: NOTICE_SEND_QUEUE,
      cron: NOTICE_SEND_CRON,
      // A failed run is not retried: the next minute's run is the retry.
      policy: { policy: 'stately', retryLimit: 0, expireInSeconds: 5 * 60 },
      // Notices queued while no sender ran go now.
      atStart: 'now',
      async run(again) {
        const result = await sender.run();
        if (result.sent + result.retried + result.failed + result.skipped > 0)
          log.info(result, 'jobs: notices sent');
        // Stopped on time with notices still due: the next run follows at once (or when the
        // provider said to come back).
        if (result.more) await again(result.resumeAfterSeconds);
      },
      stop: () => sender.stop(),
    },
    {
      queue: NOTICE_REMINDERS_QUEUE,
      cron: NOTICE_REMINDERS_CRON,
      policy: DAILY_POLICY,
      atStart: 'catch-up',
      async run() {
        const counts = await background.queueReminders(today());
        log.info({ today: today(), ...counts }, 'jobs: reminders queued');
      },
    },
    {
      // A customer who closed the page after paying, with the webhook lost too, still gets
      // the installment: the gateway is asked after orders open for more than 15 minutes.
      queue: ONLINE_RECONCILE_QUEUE,
      cron: ONLINE_RECONCILE_CRON,
      policy: { policy: 'stately', retryLimit: 0, expireInSeconds: 5 * 60 },
      atStart: 'catch-up',
      async run() {
        const result = await services.memberPayments.reconcile();
        if (result.checked > 0) log.info(result, 'jobs: online orders reconciled');
      },
    },
    {
      queue: MEMBER_PURGE_QUEUE,
      cron: MEMBER_PURGE_CRON,
      policy: DAILY_POLICY,
      atStart: 'catch-up',
      async run() {
        const deleted = await services.members.purgeExpired();
        log.info(deleted, 'jobs: members purge done');
      },
    },
  ];
}

export type Jobs = Awaited<ReturnType<typeof startJobs>>;

/** Starts every job of the table: its queue and schedule made (once), its worker running. */
export async function startJobs(options: JobsOptions) {
  const { log } = options;
  const { storeTimezone } = options.services.config;
  const catchUp = options.catchUpAfterSeconds ?? CATCH_UP_AFTER_SECONDS;
  // pg-boss on a pool of our own, so that a stop can wait for its last writes (see stop).
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: 2,
    application_name: 'kanak-jobs',
  });
  // A lost connection (a database restart, an operator ending sessions) must not end the
  // process, and its error comes with the whole pg client attached: only what went wrong is
  // logged. A checked-out connection's next query fails instead, and pg-boss reports that.
  pool.on('error', (error) => log.error({ err: errorInBrief(error) }, 'jobs: pg-boss error'));
  pool.on('connect', (client) => client.on('error', () => undefined));
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: JOBS_SCHEMA,
  });
  boss.on('error', (error) => log.error({ err: errorInBrief(error) }, 'jobs: pg-boss error'));
  // Our job runs under way: a worker that was fetching when the stop came starts one after.
  let running = 0;
  const stopBoss = async (graceful: boolean) => {
    await boss.stop({ graceful, wait: true, timeout: 10_000 });
    // pg-boss's stop returns while a worker's fetch is still under way (its job then runs
    // after), and marks a finished job completed without waiting for the write. A pool closed
    // under either left the job active, and a stately queue runs nothing while one is active
    // (the notices' sender stood still until the job expired, 5 minutes after a restart). So
    // the pool closes once no job of ours runs and no statement is out.
    for (const until = Date.now() + 15_000; Date.now() < until; await sleep(20)) {
      if (running === 0 && pool.waitingCount === 0 && pool.idleCount === pool.totalCount) break;
    }
    await pool.end();
  };
  const jobs = jobsOf(options);
  try {
    await oneStartAtATime(options.services.db, boss, async () => {
      for (const job of jobs) {
        await boss.createQueue(job.queue, { name: job.queue, ...job.policy });
        await boss.schedule(job.queue, job.cron, {}, { tz: storeTimezone });
      }
    });
    for (const job of jobs) {
      await (job.atStart === 'now'
        ? boss.send(job.queue, {})
        : boss.send(
            job.queue,
            { reason: 'start' },
            { startAfter: catchUp, singletonKey: 'catch-up' },
          ));
      const again = async (afterSeconds?: number) => {
        await boss.send(job.queue, {}, { startAfter: afterSeconds });
      };
      await boss.work(job.queue, async () => {
        running++;
        try {
          await job.run(again);
        } finally {
          running--;
        }
      });
    }
    return {
      boss,
      stop: async () => {
        for (const job of jobs) job.stop?.();
        await stopBoss(true);
      },
    };
  } catch (error) {
    // Not left running half set up, with nobody to stop it: a start tried again begins anew.
    await stopBoss(false).catch(() => undefined);
    throw error;
  }
}

/**
 * Starts the jobs, and again a little later while the database cannot be reached: a server
 * already answering requests (503 while the database is away) must not exit because its
 * jobs met the same outage during their start. Any other failure is thrown. Gives up,
 * answering undefined, once `stopped` is aborted.
 */
export async function startJobsOnceReachable(
  options: JobsOptions,
  stopped: AbortSignal,
  retryMs = START_RETRY_MS,
): Promise<Jobs | undefined> {
  for (;;) {
    try {
      return await startJobs(options);
    } catch (error) {
      if (!isDatabaseUnavailable(error) || stopped.aborted) throw error;
      options.log.warn(
        { err: errorInBrief(error) },
        'jobs: the database cannot be reached; starting the jobs again shortly',
      );
      await sleep(retryMs, undefined, { signal: stopped }).catch(() => undefined);
      if (stopped.aborted) return undefined;
    }
  }
}

/**
 * Instances started together on a new database would all make pg-boss's schema and queues at
 * once. pg-boss serialises its schema but not its queues: each queue is a partition attached
 * to the jobs table, and two made at once (ours, or pg-boss's own cron queue made inside its
 * start) can deadlock, which PostgreSQL ends by failing one of them, and that instance's jobs
 * did not start. So an instance starts pg-boss and makes its queues and schedules under a lock
 * of our own, held in a transaction of the app's pool; the next one waits, then finds all made
 * and changes nothing.
 */
async function oneStartAtATime(db: Db, boss: PgBoss, setUp: () => Promise<void>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('kanak:jobs:start'))`);
    await boss.start();
    await setUp();
  });
}

/**
 * Wakes the notices' sender from any process, the web instances with JOBS=off included: a job
 * on its queue, written through this process's own pool. The outbox calls it once the
 * transaction that queued the notice has committed, so the sender finds the notice. Calls
 * while one is on its way share one more after it, and the queue drops it when a run is
 * already waiting. One that is lost only delays the notice to the next minute's run.
 */
export function noticeNudge(pool: pg.Pool, log: Pick<FastifyBaseLogger, 'warn'>): () => void {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: JOBS_SCHEMA,
  });
  let sending = false;
  let again = false;
  // Said once until a nudge gets through again (no jobs schema yet: the worker never ran).
  let failing = false;
  const send = () => {
    sending = true;
    boss
      .send(NOTICE_SEND_QUEUE, {})
      .then(
        () => (failing = false),
        (error: unknown) => {
          if (!failing)
            log.warn({ err: errorInBrief(error) }, 'notices: the sender was not nudged');
          failing = true;
        },
      )
      .finally(() => {
        sending = false;
        if (again) {
          again = false;
          send();
        }
      });
  };
  return () => {
    if (sending) again = true;
    else send();
  };
}
