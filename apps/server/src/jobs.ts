import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db, Tx } from './db/client.js';
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
    // Under its own name: PgBoss offers the manager's methods as its own by their names
    // (`boss.complete`, `boss.fail`), and an anonymous one would be offered as neither.
    const heard: Settle = function (this: unknown, ...args: unknown[]) {
      const settled = settle.apply(this, args);
      settled.catch(() => undefined);
      return settled;
    };
    Object.defineProperty(heard, 'name', { value: name });
    manager.prototype[name] = heard;
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
/** The daily backup; its time of day is BACKUP_AT. */
export const BACKUP_QUEUE = 'backups-daily';
/** BACKUP_AT ("02:30") as a daily cron expression. */
const dailyAt = (time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  return `${minute} ${hour} * * *`;
};
/** After every start, once this soon: a server switched off at night catches up. */
const CATCH_UP_AFTER_SECONDS = 30;

/**
 * Every scheduled job by its queue's name, and whether it works on a day: the store's today
 * when the schedule runs it, or the day `npm run job -- <name> --as-of` names.
 */
export const SCHEDULED_JOBS = {
  [EXPIRY_QUEUE]: { takesDay: true },
  [TIER_REVIEW_QUEUE]: { takesDay: true },
  [NOTICE_SEND_QUEUE]: { takesDay: false },
  [NOTICE_REMINDERS_QUEUE]: { takesDay: true },
  [ONLINE_RECONCILE_QUEUE]: { takesDay: false },
  [MEMBER_PURGE_QUEUE]: { takesDay: false },
  [BACKUP_QUEUE]: { takesDay: false },
} as const;
export type JobName = keyof typeof SCHEDULED_JOBS;

export interface JobsOptions {
  connectionString: string;
  log: Pick<FastifyBaseLogger, 'info' | 'error' | 'warn'>;
  /** The process's services (see createServices): the jobs run theirs. */
  services: Pick<Services, 'config' | 'db' | 'today' | 'background' | 'members' | 'memberPayments'>;
  catchUpAfterSeconds?: number;
  /** The sender's timings, for tests. */
  sender?: NoticeSenderTimings;
}

/** How long a start that met an unreachable database waits before it tries again. */
const START_RETRY_MS = 2_000;

/** A background job: its queue, when it runs, how pg-boss keeps it, and what it does. */
interface Job {
  queue: JobName;
  /** When it runs, in the store's time zone. */
  cron: string;
  policy: Omit<PgBoss.Queue, 'name'>;
  /**
   * Sent at every start too: `now`, or once a little later with one catch-up at a time (a
   * server switched off at night catches up).
   */
  atStart: 'now' | 'catch-up';
  /**
   * One run; `again` asks for the next one at once or after the given seconds. `day` is the
   * day a daily job works on (see SCHEDULED_JOBS).
   */
  run(again: (afterSeconds?: number) => Promise<void>, day: string): Promise<void>;
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
 * A backup may take a while on a large database; a failed one (a full disk, the database away)
 * is tried twice more, 10 and 20 minutes later. Each try is recorded.
 */
const BACKUP_POLICY: Job['policy'] = {
  policy: 'singleton',
  retryLimit: 2,
  retryDelay: 600,
  retryBackoff: true,
  expireInHours: 6,
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
 *   daily at 00:45 store time and once soon after every start (see purgeExpired);
 * - the backup, daily at BACKUP_AT store time and once soon after every start, which backs up
 *   only when no good backup was made since BACKUP_AT last came round (see scheduled in the
 *   backups module): a computer switched off at night is backed up once it is on.
 */
function jobsOf(options: JobsOptions): Job[] {
  const { log, services } = options;
  const { background } = services;
  const sender = background.noticeSender(log, options.sender);
  return [
    {
      queue: EXPIRY_QUEUE,
      cron: EXPIRY_CRON,
      policy: DAILY_POLICY,
      atStart: 'catch-up',
      async run(_again, day) {
        const result = await background.expirePoints(day);
        log.info({ today: day, ...result }, 'jobs: points expiry done');
      },
    },
    {
      queue: TIER_REVIEW_QUEUE,
      cron: TIER_REVIEW_CRON,
      policy: DAILY_POLICY,
      atStart: 'catch-up',
      async run(_again, day) {
        const result = await background.reviewTiers(day);
        log.info({ today: day, ...result }, 'jobs: tier anniversaries done');
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
      async run(_again, day) {
        const counts = await background.queueReminders(day);
        log.info({ today: day, ...counts }, 'jobs: reminders queued');
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
    {
      queue: BACKUP_QUEUE,
      cron: dailyAt(services.config.backups.at),
      policy: BACKUP_POLICY,
      atStart: 'catch-up',
      async run() {
        try {
          const done = await background.backUp();
          if ('skipped' in done) log.info(done, 'jobs: backup not needed');
          else {
            const { id, file, bytes, durationMs, pruned } = done;
            log.info({ id, file, bytes, durationMs, pruned }, 'jobs: backup written and checked');
          }
        } catch (error) {
          // Recorded on the Backups screen with its reason; tried again by the queue's policy.
          log.error({ err: errorInBrief(error) }, 'jobs: backup failed');
          throw error;
        }
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
    await oneStartAtATime(options.services.db, boss, () => setUpQueues(boss, jobs, storeTimezone));
    for (const job of jobs) {
      await (job.atStart === 'now'
        ? boss.send(job.queue, {})
        : // No key of its own: a catch-up shares the queue's one slot with the scheduled runs,
          // so it never runs while one is under way (another instance's included).
          boss.send(job.queue, { reason: 'start' }, { startAfter: catchUp }));
      const again = async (afterSeconds?: number) => {
        await boss.send(job.queue, {}, { startAfter: afterSeconds });
      };
      await boss.work(job.queue, async ([received]) => {
        running++;
        try {
          await job.run(again, dayOf(received?.data) ?? options.services.today());
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

/** Each job's queue and schedule, made once: a queue or schedule already there is left as it is. */
async function setUpQueues(boss: PgBoss, jobs: Job[], timeZone: string) {
  for (const job of jobs) {
    await boss.createQueue(job.queue, { name: job.queue, ...job.policy });
    await boss.schedule(job.queue, job.cron, {}, { tz: timeZone });
  }
}

/** The day a job's data names (`npm run job -- --as-of`), if it names one. */
function dayOf(data: unknown): string | undefined {
  const asOf = (data as { asOf?: unknown } | null | undefined)?.asOf;
  return typeof asOf === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(asOf) ? asOf : undefined;
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

/**
 * The jobs waiting (queued, or to be retried) and running in each queue, from pg-boss's own
 * tables; none before pg-boss has made its schema (no instance ran the jobs yet).
 */
export async function jobQueueCounts(tx: Tx) {
  const [schema] = (
    await tx.execute<{ found: boolean }>(
      sql`SELECT to_regclass(${`${JOBS_SCHEMA}.queue`}) IS NOT NULL AS found`,
    )
  ).rows;
  if (!schema?.found) return [];
  const counts = await tx.execute<{ queue: string; queued: number; active: number }>(
    sql.raw(`
      SELECT q.name AS queue,
             count(j.id) FILTER (WHERE j.state < 'active')::int AS queued,
             count(j.id) FILTER (WHERE j.state = 'active')::int AS active
        FROM ${JOBS_SCHEMA}.queue q
             LEFT JOIN ${JOBS_SCHEMA}.job j ON j.name = q.name AND j.state <= 'active'
       GROUP BY q.name
       ORDER BY q.name`),
  );
  return counts.rows.map((row) => ({
    queue: row.queue,
    queued: Number(row.queued),
    active: Number(row.active),
  }));
}

/**
 * A run asked for by a command comes before every run waiting in its queue, and is held out of
 * the workers' reach for this long: the command takes it itself. A command that dies before
 * leaves it to a worker after that, which runs it as the command would have.
 */
const COMMAND_PRIORITY = 100;
const COMMAND_HOLD_SECONDS = 10 * 60;
/** How often a command waiting for another run of its job to end asks again. */
const COMMAND_POLL_MS = 1_000;

export interface JobCommand {
  name: JobName;
  /** The day a daily job works on; the store's today when absent. */
  asOf?: string;
  /** How long to wait for a run already under way to end before giving up. */
  waitMs: number;
  /** Called once if another run of the job holds its queue and the command waits. */
  onWait?(): void;
}

/** What became of a command's run. */
export type JobCommandResult = 'done' | 'gave up';

/**
 * Runs one scheduled job now, as `npm run job` asks, with the same code and the same lock as
 * its schedule: the run is a job of the job's own queue, taken (made active) by this process
 * as a worker takes one, so the queue's policy still lets one run at a time (a singleton or
 * stately queue refuses to make a second one active; the command waits until the first ends).
 * A run that fails is marked failed in its queue, and pg-boss retries it as it retries the
 * schedule's (the run keeps its day).
 */
export async function runJobNow(
  options: JobsOptions,
  command: JobCommand,
): Promise<JobCommandResult> {
  const { log, services } = options;
  const jobs = jobsOf(options);
  const job = jobs.find((candidate) => candidate.queue === command.name);
  if (!job) throw new Error(`no job named ${command.name}`);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: 2,
    application_name: 'kanak-job-command',
  });
  pool.on('error', (error) => log.error({ err: errorInBrief(error) }, 'jobs: pg-boss error'));
  pool.on('connect', (client) => client.on('error', () => undefined));
  // Neither supervising queues nor sending scheduled runs: the instances running the jobs do.
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: JOBS_SCHEMA,
    supervise: false,
    schedule: false,
  });
  boss.on('error', (error) => log.error({ err: errorInBrief(error) }, 'jobs: pg-boss error'));
  const again = async (afterSeconds?: number) => {
    await boss.send(job.queue, {}, { startAfter: afterSeconds });
  };
  try {
    await oneStartAtATime(services.db, boss, () =>
      setUpQueues(boss, jobs, services.config.storeTimezone),
    );
    const ours = await boss.send(
      job.queue,
      { reason: 'command', ...(command.asOf ? { asOf: command.asOf } : {}) },
      { priority: COMMAND_PRIORITY, startAfter: COMMAND_HOLD_SECONDS },
    );
    // A stately queue keeps one run waiting: when one already waits, that run is ours to take
    // once it is due (the notices' sender may have been told by the provider to wait).
    let waited = false;
    for (const until = Date.now() + command.waitMs; ;) {
      const [taken] = await boss.fetch<unknown>(job.queue, { ignoreStartAfter: ours !== null });
      if (taken) {
        try {
          await job.run(again, dayOf(taken.data) ?? services.today());
        } catch (error) {
          await boss.fail(job.queue, taken.id, { message: (error as Error).message });
          throw error;
        }
        await boss.complete(job.queue, taken.id);
        // Another command's run, asked for first: ours is next.
        if (ours === null || taken.id === ours) return 'done';
        continue;
      }
      if (ours !== null && (await boss.getJobById(job.queue, ours))?.state === 'completed')
        return 'done';
      if (Date.now() >= until) {
        if (ours !== null) await boss.cancel(job.queue, ours);
        return 'gave up';
      }
      if (!waited) command.onWait?.();
      waited = true;
      await sleep(COMMAND_POLL_MS);
    }
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await pool.end();
  }
}
