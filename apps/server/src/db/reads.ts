import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../lib/pg-errors.js';
import { connectDatabase, type Database } from './client.js';

/**
 * Where the reports read: statements, the scheme summary, the customer export, the audit trail,
 * the dashboard and the reports go to a streaming replica (REPORTS_DATABASE_URL) when it is close enough behind the
 * primary, so that a back office printing statements does not slow the counters' changes.
 * Everything else, and every read of a staff member right after their own change, stays on
 * the primary: a statement printed after a payment must show the payment.
 *
 * How far behind the replica is gets measured every few seconds, not per request: the
 * primary's WAL position and clock are sampled, and the replica has everything the primary
 * had at the newest sample its replay has passed (or, before any sample, at the commit time
 * of the last transaction it replayed). A replica that cannot be reached, is no standby, or
 * is more than `maxLagSeconds` behind is left alone until a later check finds it fit again;
 * each change of that state is logged once.
 */
export interface Reads {
  /** Whether a replica is configured at all. */
  replicated: boolean;
  /** Runs `read` on the replica when it may answer `reader`, otherwise on the primary. */
  run<T>(reader: Reader, read: (from: ReadSource) => Promise<T>): Promise<T>;
  /** Checks the replica now (the timer does so every few seconds); its state after. */
  check(): Promise<ReplicaState>;
  close(): Promise<void>;
}

/** The connections a read runs on: drizzle for queries, the pool for streamed exports. */
export type ReadSource = Pick<Database, 'db' | 'pool'>;

/** Who reads: what they read must hold their own latest change. */
export interface Reader {
  lastChangeAt: Date | null;
}

export type ReplicaState =
  | { name: 'none' }
  | { name: 'unchecked' }
  /** Holds everything the primary had committed at `asOf` (the primary's clock). */
  | { name: 'fresh'; asOf: Date; lagSeconds: number }
  | { name: 'behind'; lagSeconds: number | null }
  | { name: 'unreachable'; reason: string }
  | { name: 'not a standby' };

/** How often the replica's lag is measured. */
const CHECK_EVERY_MS = 2_000;
/** A check's connect and query each give up after this: a hung replica is an unreachable one. */
const CHECK_TIMEOUT_MS = 2_000;

export function createReads(options: {
  primary: ReadSource;
  replicaUrl: string | undefined;
  maxLagSeconds: number;
  log: FastifyBaseLogger;
  /** Off when the replica, too, is reached through a pooler that keeps no prepared statements. */
  preparedStatements?: boolean;
}): Reads {
  const { primary, replicaUrl, maxLagSeconds, log } = options;
  if (!replicaUrl) {
    return {
      replicated: false,
      run: (_reader, read) => read(primary),
      check: async () => ({ name: 'none' }),
      close: async () => undefined,
    };
  }

  const replica = connectDatabase(replicaUrl, {
    connectionTimeoutMillis: CHECK_TIMEOUT_MS,
    preparedStatements: options.preparedStatements,
  });
  let state: ReplicaState = { name: 'unchecked' };
  /** The primary's position at each recent check, oldest first. */
  const samples: { lsn: bigint; at: Date }[] = [];

  const enter = (next: ReplicaState) => {
    if (next.name !== state.name) logChange(log, next, maxLagSeconds);
    state = next;
  };

  const measure = async (): Promise<ReplicaState> => {
    const timeout = { query_timeout: CHECK_TIMEOUT_MS };
    const {
      rows: [now],
    } = await primary.pool.query<{ lsn: string; at: Date }>({
      text: 'SELECT pg_current_wal_lsn()::text AS lsn, clock_timestamp() AS at',
      ...timeout,
    });
    samples.push({ lsn: parseLsn(now!.lsn), at: now!.at });
    // Older samples than the limit cannot make the replica fresh enough any more.
    const oldest = now!.at.getTime() - maxLagSeconds * 1000 - CHECK_EVERY_MS;
    while (samples[0]!.at.getTime() < oldest) samples.shift();

    let standby: { recovering: boolean; replayed: string | null; replayedAt: Date | null };
    try {
      standby = (
        await replica.pool.query<typeof standby>({
          text: `SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replayed,
                   pg_last_xact_replay_timestamp() AS "replayedAt"`,
          ...timeout,
        })
      ).rows[0]!;
    } catch (error) {
      // Down, hung, refusing our password: whatever it is, the reports cannot read there.
      return { name: 'unreachable', reason: (error as Error).message };
    }
    if (!standby.recovering || standby.replayed === null) return { name: 'not a standby' };
    const replayed = parseLsn(standby.replayed);
    const caughtUpWith = samples.findLast((sample) => sample.lsn <= replayed)?.at;
    const asOf = latest(caughtUpWith, standby.replayedAt);
    if (!asOf) return { name: 'behind', lagSeconds: null };
    const lagSeconds = Math.max(0, (now!.at.getTime() - asOf.getTime()) / 1000);
    return lagSeconds > maxLagSeconds
      ? { name: 'behind', lagSeconds }
      : { name: 'fresh', asOf, lagSeconds };
  };

  let checking: Promise<ReplicaState> | undefined;
  const check = () =>
    (checking ??= measure()
      .then(enter)
      .catch((error: unknown) => {
        // The primary did not answer (down, or too busy to answer in time). The state stays as
        // last measured: its `asOf` does not move on, so a reader's own change is never looked
        // for on the replica, and reports keep off a primary in trouble.
        log.debug({ err: error }, 'reports replica: the primary did not answer the lag check');
      })
      .then(() => state)
      .finally(() => {
        checking = undefined;
      }));
  void check();
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  timer.unref();

  return {
    replicated: true,
    async run(reader, read) {
      const fit =
        state.name === 'fresh' &&
        (reader.lastChangeAt === null || reader.lastChangeAt <= state.asOf);
      if (!fit) return read(primary);
      try {
        return await read(replica);
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          enter({ name: 'unreachable', reason: (error as Error).message });
        } else if (!isRecoveryConflict(error)) {
          throw error;
        }
        // Reports only read: asking the primary again does nothing twice.
        return read(primary);
      }
    },
    check,
    async close() {
      clearInterval(timer);
      await checking;
      await replica.close();
    },
  };
}

function logChange(log: FastifyBaseLogger, next: ReplicaState, maxLagSeconds: number) {
  switch (next.name) {
    case 'fresh':
      log.info(
        { lagSeconds: next.lagSeconds },
        'reports replica: up to date, statements and reports read from it',
      );
      break;
    case 'behind':
      log.warn(
        { lagSeconds: next.lagSeconds, maxLagSeconds },
        'reports replica: too far behind the primary, statements and reports read from the primary',
      );
      break;
    case 'unreachable':
      log.warn(
        { reason: next.reason },
        'reports replica: cannot be reached, statements and reports read from the primary',
      );
      break;
    case 'not a standby':
      log.error(
        'reports replica: REPORTS_DATABASE_URL is not a standby in recovery, statements and reports read from the primary',
      );
      break;
  }
}

/**
 * A standby cancels a query that holds up its replay (rows a vacuum on the primary removed, a
 * table the primary locked): not the replica's failure, and the primary can answer.
 */
function isRecoveryConflict(error: unknown): boolean {
  const root = ((error as { cause?: unknown })?.cause ?? error) as {
    code?: string;
    message?: string;
  };
  return root.code === '40001' && /conflict with recovery/.test(root.message ?? '');
}

/** A WAL position ('16/B374D848') as a number, so two can be compared. */
export function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

function latest(a: Date | undefined, b: Date | null): Date | undefined {
  if (!a) return b ?? undefined;
  return b && b > a ? b : a;
}
