import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { Gauge } from 'prom-client';
import type { Db } from './db/client.js';
import type { Reads, ReplicaState } from './db/reads.js';
import { jobQueueCounts } from './jobs.js';
import { createMetrics, SCRAPE_READ_MS, type Metrics } from './lib/metrics.js';
import { lastGoodBackupAgeSeconds } from './modules/backups/index.js';
import { noticesRepo } from './modules/notices/notices.repo.js';
import { pointsOfDay } from './modules/points/index.js';
import { schemesRepo } from './modules/schemes/index.js';

export interface ServerMetricsDeps {
  db: Db;
  /** The pool behind `db`: its connections in use, idle and waited for. */
  pool: pg.Pool;
  reads: Reads;
  /** The store's today: the day whose postings are counted. */
  today: () => string;
  /** How long a read at scrape time may take (tests shorten it). */
  readMs?: number;
}

/**
 * What GET /metrics shows of this server, and where each figure is read. Beside the request
 * durations (metrics.routes.ts) and the Node process's own metrics:
 * - the database pool's connections, from the pool itself;
 * - from the database at each scrape, in one short read-only transaction: the notices' queue,
 *   the background jobs' queues, and today's points and installments from the daily totals
 *   their triggers keep (committed postings of every instance and of the worker, a few rows to
 *   read);
 * - the last good backup's age, from the backups module at each scrape (source `backups`);
 * - with REPORTS_DATABASE_URL, the replica's state and lag as the reads measure them.
 * Another figure read at scrape time is added here, in its own `metrics.readAtScrape` source.
 */
export function createServerMetrics(deps: ServerMetricsDeps): Metrics {
  const readMs = deps.readMs ?? SCRAPE_READ_MS;
  const metrics = createMetrics(readMs);
  const registers = [metrics.registry];
  const { pool } = deps;

  new Gauge({
    name: 'kanak_db_pool_connections',
    help: "The database pool's connections: in use, idle, and requests waiting for one.",
    labelNames: ['state'],
    registers,
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  const noticesQueued = new Gauge({
    name: 'kanak_notices_queued',
    help: 'Notices to customers still queued (due now, waiting for their time, or to be retried).',
    registers,
  });
  const oldestQueued = new Gauge({
    name: 'kanak_notices_oldest_queued_seconds',
    help: 'How long the oldest queued notice has been queued (0 when none is).',
    registers,
  });
  const oldestDue = new Gauge({
    name: 'kanak_notices_oldest_due_seconds',
    help: 'How long the oldest queued notice has been due without being sent (0 when none is).',
    registers,
  });
  const noticesLastDay = new Gauge({
    name: 'kanak_notices_last_24h',
    help: 'Notices queued in the last 24 hours, by their status now.',
    labelNames: ['status'],
    registers,
  });
  const jobs = new Gauge({
    name: 'kanak_jobs',
    help: 'Background jobs per pg-boss queue: queued (waiting or to be retried) and active.',
    labelNames: ['queue', 'state'],
    registers,
  });
  const pointsToday = new Gauge({
    name: 'kanak_points_today',
    help: "Points posted on the store's today, every branch: issued, redeemed and expired.",
    labelNames: ['kind'],
    registers,
  });
  const installmentsToday = new Gauge({
    name: 'kanak_installments_today',
    help: "Scheme installments dated the store's today, every branch, by mode.",
    labelNames: ['mode'],
    registers,
  });
  const installmentRupeesToday = new Gauge({
    name: 'kanak_installments_today_rupees',
    help: "Rupees of the scheme installments dated the store's today, every branch, by mode.",
    labelNames: ['mode'],
    registers,
  });
  metrics.readAtScrape('database', {
    gauges: [
      noticesQueued,
      oldestQueued,
      oldestDue,
      noticesLastDay,
      jobs,
      pointsToday,
      installmentsToday,
      installmentRupeesToday,
    ],
    read: () =>
      deps.db.transaction(
        async (tx) => {
          // Gives up on the server too, so a slow database is not left a query per scrape.
          await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${Math.ceil(readMs)}`));
          const day = deps.today();
          return {
            notices: await noticesRepo.queueFigures(tx),
            jobs: await jobQueueCounts(tx),
            points: await pointsOfDay(tx, day),
            installments: await schemesRepo.collectionsOfDay(tx, day),
          };
        },
        { accessMode: 'read only' },
      ),
    show(figures) {
      noticesQueued.set(figures.notices.queued);
      oldestQueued.set(figures.notices.oldestQueuedSeconds);
      oldestDue.set(figures.notices.oldestDueSeconds);
      for (const { status, count } of figures.notices.lastDay)
        noticesLastDay.set({ status }, count);
      for (const { queue, queued, active } of figures.jobs) {
        jobs.set({ queue, state: 'queued' }, queued);
        jobs.set({ queue, state: 'active' }, active);
      }
      for (const kind of ['issued', 'redeemed', 'expired'] as const)
        pointsToday.set({ kind }, figures.points[kind]);
      for (const { mode, installments, rupees } of figures.installments) {
        installmentsToday.set({ mode }, installments);
        installmentRupeesToday.set({ mode }, rupees);
      }
    },
  });

  const backupAge = new Gauge({
    name: 'kanak_backup_last_good_age_seconds',
    help:
      'Seconds since the last good backup began (absent while there is none: alert on ' +
      'absent() too).',
    registers,
  });
  metrics.readAtScrape('backups', {
    gauges: [backupAge],
    read: () => lastGoodBackupAgeSeconds(deps.db),
    show(age) {
      if (age !== undefined) backupAge.set(age);
    },
  });

  if (deps.reads.replicated) {
    const lag = new Gauge({
      name: 'kanak_reports_replica_lag_seconds',
      help: 'How far the reports replica is behind the primary, when it could be measured.',
      registers,
    });
    const state = new Gauge({
      name: 'kanak_reports_replica_state',
      help:
        "The reports replica's state (1 for the current one): fresh (reports read it), behind, " +
        'unreachable, not_a_standby or unchecked (reports read the primary).',
      labelNames: ['state'],
      registers,
    });
    metrics.readAtScrape('replica', {
      gauges: [lag, state],
      read: () => deps.reads.check(),
      show(replica: ReplicaState) {
        state.set({ state: replica.name.replaceAll(' ', '_') }, 1);
        if ('lagSeconds' in replica && replica.lagSeconds !== null) lag.set(replica.lagSeconds);
      },
    });
  }

  return metrics;
}
