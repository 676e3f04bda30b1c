import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { todayIn } from '@kanak/contract';
import type { Config, MessagingConfig } from './config.js';
import type { Db } from './db/client.js';
import { createFieldCipher } from './lib/crypto.js';
import { errorInBrief } from './lib/logging.js';
import { isDatabaseUnavailable } from './lib/pg-errors.js';
import { branchesRepo } from './modules/branches/branches.repo.js';
import { customersRepo } from './modules/customers/customers.repo.js';
import { messagingRepo } from './modules/messaging/messaging.repo.js';
import { createMessagingService } from './modules/messaging/messaging.service.js';
import { createNoticesOutbox } from './modules/notices/notices.outbox.js';
import { queueReminders } from './modules/notices/notices.reminders.js';
import { createNoticeSender, type SenderOptions } from './modules/notices/notices.sender.js';
import { expireDueLots } from './modules/points/points.expiry.js';
import { pointsSummaryReader } from './modules/points/points.summary.js';
import { schemesRepo } from './modules/schemes/schemes.repo.js';

/** The queue of the daily points expiry. */
export const EXPIRY_QUEUE = 'points-expiry';
/** The sender of notices to customers: every minute, and whenever a notice is queued. */
export const NOTICE_SEND_QUEUE = 'notices-send';
/** The day's reminders and digests to customers. */
export const NOTICE_REMINDERS_QUEUE = 'notices-reminders';
/** pg-boss keeps its tables in a schema of its own. */
export const JOBS_SCHEMA = 'pgboss';
/** Daily at 00:30 store time. */
const EXPIRY_CRON = '30 0 * * *';
/** Every minute: notices queued while no nudge reached the sender, and retries coming due. */
const NOTICE_SEND_CRON = '* * * * *';
/** Daily at 08:00 store time: queued before the day's hours open (9:00), sent from then. */
const NOTICE_REMINDERS_CRON = '0 8 * * *';
/** After every start, once this soon: a server switched off at night catches up. */
const CATCH_UP_AFTER_SECONDS = 30;
/** A nudge waits this long: the transaction that queued the notice has then committed. */
const NUDGE_DELAY_MS = 500;

export interface JobsOptions {
  connectionString: string;
  db: Db;
  storeTimezone: string;
  log: Pick<FastifyBaseLogger, 'info' | 'error' | 'warn'>;
  /** The field key: the messaging token is sealed with it. */
  dataKey: string;
  messaging: MessagingConfig;
  /** The shop's name, for {shop} in reminders. */
  shop: string;
  /** "Now", for tests. */
  clock?: () => Date;
  catchUpAfterSeconds?: number;
  /** The sender's timings, for tests. */
  sender?: Pick<SenderOptions, 'leaseSeconds' | 'timeoutMs' | 'runSeconds'>;
}

/** How long a start that met an unreachable database waits before it tries again. */
const START_RETRY_MS = 2_000;

/** The jobs' options that come from the configuration: the same in the server and the worker. */
export const jobsOptionsOf = (
  config: Pick<Config, 'storeTimezone' | 'messaging' | 'branding'>,
  given: Pick<JobsOptions, 'connectionString' | 'db' | 'log' | 'dataKey'>,
): JobsOptions => ({
  ...given,
  storeTimezone: config.storeTimezone,
  messaging: config.messaging,
  shop: config.branding.companyName,
});

/**
 * The background jobs on PostgreSQL (pg-boss 10), in their own schema made at the first start:
 * - the points expiry, daily at 00:30 store time and once soon after every start; a singleton
 *   queue, so a scheduled run and a catch-up never run at once, and the expiry itself is safe
 *   to repeat (see expireDueLots);
 * - the sender of notices to customers, every minute and when nudged; a 'stately' queue (one
 *   run at a time across every process, one more waiting, further nudges dropped);
 * - the reminders and digests, daily at 08:00 store time and once soon after every start, safe
 *   to repeat (see queueReminders).
 */
export type Jobs = Awaited<ReturnType<typeof startJobs>>;

export async function startJobs(options: JobsOptions) {
  const { log } = options;
  const now = () => options.clock?.() ?? new Date();
  const today = () => todayIn(options.storeTimezone, now());
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
  const work = (name: string, run: () => Promise<void>) =>
    boss.work(name, async () => {
      running++;
      try {
        await run();
      } finally {
        running--;
      }
    });
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
  try {
    await oneStartAtATime(options.db, boss, async () => {
      await boss.createQueue(EXPIRY_QUEUE, {
        name: EXPIRY_QUEUE,
        policy: 'singleton',
        retryLimit: 5,
        retryDelay: 60,
        retryBackoff: true,
        expireInHours: 2,
      });
      await boss.schedule(EXPIRY_QUEUE, EXPIRY_CRON, {}, { tz: options.storeTimezone });
      await boss.createQueue(NOTICE_SEND_QUEUE, {
        name: NOTICE_SEND_QUEUE,
        policy: 'stately',
        // A failed run is not retried: the next minute's run is the retry.
        retryLimit: 0,
        expireInSeconds: 5 * 60,
      });
      await boss.schedule(NOTICE_SEND_QUEUE, NOTICE_SEND_CRON, {}, { tz: options.storeTimezone });
      await boss.createQueue(NOTICE_REMINDERS_QUEUE, {
        name: NOTICE_REMINDERS_QUEUE,
        policy: 'singleton',
        retryLimit: 5,
        retryDelay: 60,
        retryBackoff: true,
        expireInHours: 2,
      });
      await boss.schedule(
        NOTICE_REMINDERS_QUEUE,
        NOTICE_REMINDERS_CRON,
        {},
        {
          tz: options.storeTimezone,
        },
      );
    });

    await boss.send(
      EXPIRY_QUEUE,
      { reason: 'start' },
      { startAfter: catchUp, singletonKey: 'catch-up' },
    );
    await work(EXPIRY_QUEUE, async () => {
      const result = await expireDueLots({ db: options.db }, today());
      log.info({ today: today(), ...result }, 'jobs: points expiry done');
    });

    const sender = createNoticeSender({
      ...options.sender,
      db: options.db,
      panel: createMessagingService({ db: options.db, cipher: createFieldCipher(options.dataKey) }),
      customers: customersRepo,
      urls: options.messaging.panelUrls,
      rate: options.messaging.rate,
      log,
    });
    // Notices queued while no sender ran go now.
    await boss.send(NOTICE_SEND_QUEUE, {});
    await work(NOTICE_SEND_QUEUE, async () => {
      const result = await sender.run();
      if (result.sent + result.retried + result.failed + result.skipped > 0)
        log.info(result, 'jobs: notices sent');
      // Stopped on time with notices still due: the next run follows at once (or when the
      // provider said to come back).
      if (result.more)
        await boss.send(NOTICE_SEND_QUEUE, {}, { startAfter: result.resumeAfterSeconds });
    });

    const outbox = createNoticesOutbox({
      customers: customersRepo,
      branches: branchesRepo,
      panel: messagingRepo,
      points: pointsSummaryReader,
      shop: options.shop,
      timeZone: options.storeTimezone,
      clock: options.clock,
      nudge: () => void boss.send(NOTICE_SEND_QUEUE, {}).catch(() => undefined),
    });
    await boss.send(
      NOTICE_REMINDERS_QUEUE,
      { reason: 'start' },
      { startAfter: catchUp, singletonKey: 'catch-up' },
    );
    await work(NOTICE_REMINDERS_QUEUE, async () => {
      const counts = await queueReminders(
        {
          db: options.db,
          outbox,
          schemes: schemesRepo,
          points: pointsSummaryReader,
        },
        today(),
      );
      log.info({ today: today(), ...counts }, 'jobs: reminders queued');
    });

    return {
      boss,
      stop: async () => {
        sender.stop();
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
 * on its queue, written through this process's own pool. It goes a moment after the call, so
 * the transaction that queued the notice has committed when the sender looks; calls in
 * between share it, and the queue drops it when a run is already waiting. One that comes
 * too soon, or is lost, only delays the notice to the next minute's run.
 */
export function noticeNudge(pool: pg.Pool, log: Pick<FastifyBaseLogger, 'warn'>): () => void {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: JOBS_SCHEMA,
  });
  let pending = false;
  // Said once until a nudge gets through again (no jobs schema yet: the worker never ran).
  let failing = false;
  return () => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      boss.send(NOTICE_SEND_QUEUE, {}).then(
        () => (failing = false),
        (error: unknown) => {
          if (!failing)
            log.warn({ err: errorInBrief(error) }, 'notices: the sender was not nudged');
          failing = true;
        },
      );
    }, NUDGE_DELAY_MS).unref();
  };
}
