/**
 * `npm run bench -- --replica`: the reports' read p95, and the CPU the primary spends, during a
 * read-heavy run (points statements, one month's scheme summary, a customer's audit trail, at 8
 * connections), once with every read on the primary and once with REPORTS_DATABASE_URL set to
 * a streaming replica. Both runs in one report: bench/results/replica.json
 * (replica-quick.json with --quick).
 *
 * The pair: BENCH_DATABASE_URL and BENCH_REPLICA_URL when both are given (a replica of your
 * own, on other machines), else a primary and a hot standby made here with PostgreSQL's own
 * tools in a temporary folder (apps/server/test/replication.ts), loaded with the data set anew.
 * A cluster's CPU is read from /proc, so it is reported only for a cluster on this machine.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import pg from 'pg';
import { startReplicatedPair } from '../apps/server/test/replication.js';
import { overHttp, type Scenario } from './measure.js';
import { signIn, startServer } from './server.js';

const CONNECTIONS = 8;
const REPORTS = ['pointsStatement', 'schemeSummaryWhole', 'auditByMobile'];

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  close(): Promise<void>;
}

/** The given pair, or one made on this machine. */
export async function openReplicaPair(): Promise<ReplicaPair> {
  const { BENCH_DATABASE_URL: primaryUrl, BENCH_REPLICA_URL: replicaUrl } = process.env;
  if (replicaUrl) {
    if (!primaryUrl) throw new Error('BENCH_REPLICA_URL needs BENCH_DATABASE_URL, its primary.');
    return { primaryUrl, replicaUrl, close: async () => undefined };
  }
  console.log('making a primary and a hot standby with initdb and pg_basebackup...');
  const pair = await startReplicatedPair();
  return { primaryUrl: pair.primary.url, replicaUrl: pair.standby.url, close: pair.close };
}

export async function replicaStep(options: {
  pair: ReplicaPair;
  scenarios: Scenario[];
  dataDir: string;
  durationS: number;
  quick: boolean;
  dataSet: Record<string, number>;
}) {
  const { pair, dataDir, durationS } = options;
  const parts = REPORTS.map((name) => options.scenarios.find((s) => s.name === name)!);
  const reports: Scenario = {
    name: 'reports',
    call: (n) => parts[n % parts.length]!.call(Math.floor(n / parts.length)),
    raw: (client, n) => parts[n % parts.length]!.raw(client, Math.floor(n / parts.length)),
  };
  await caughtUp(pair);

  const runs = [];
  for (const reads of ['primary', 'replica'] as const) {
    const env: Record<string, string> = { JOBS: 'off' };
    if (reads === 'replica') env.REPORTS_DATABASE_URL = pair.replicaUrl;
    const server = await startServer(pair.primaryUrl, dataDir, [], env);
    try {
      const target = {
        base: server.base,
        token: await signIn(server.base),
        databaseUrl: pair.primaryUrl,
        serverPid: server.pid,
        durationS,
      };
      // The server's first look at the replica is made at its start; give it that moment.
      await sleep(1_000);
      const clusters = await Promise.all([
        clusterCpu(pair.primaryUrl),
        clusterCpu(pair.replicaUrl),
      ]);
      const started = performance.now();
      const http = await overHttp(target, reports, CONNECTIONS);
      const seconds = (performance.now() - started) / 1000;
      const [primaryCores, replicaCores] = clusters.map((cpu) => cpu?.coresSince(seconds) ?? null);
      runs.push({ reads, ...http, primaryCpuCores: primaryCores, replicaCpuCores: replicaCores });
      console.log(
        `reports read from the ${reads}: ${http.requestsPerSecond} req/s, server p95 ${http.serverTimeMs.p95} ms, ` +
          `primary CPU ${primaryCores ?? '?'} cores, replica CPU ${replicaCores ?? '?'} cores`,
      );
    } finally {
      await server.stop();
    }
  }

  const results = {
    at: new Date().toISOString(),
    quick: options.quick,
    machine: { cores: os.cpus().length, loadAverage: os.loadavg()[0]!.toFixed(2) },
    dataSet: options.dataSet,
    mix: REPORTS,
    connections: CONNECTIONS,
    durationS,
    runs,
  };
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const name = options.quick ? 'replica-quick.json' : 'replica.json';
  await writeFile(new URL(name, dir), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to bench/results/${name}`);
}

/** Until the replica has replayed everything the primary has written (the data set's load). */
async function caughtUp(pair: ReplicaPair) {
  const [primary, replica] = [pair.primaryUrl, pair.replicaUrl].map(
    (url) => new pg.Client({ connectionString: url }),
  ) as [pg.Client, pg.Client];
  await Promise.all([primary.connect(), replica.connect()]);
  try {
    const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn');
    for (;;) {
      const { rows: done } = await replica.query<{ done: boolean }>(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [rows[0]!.lsn],
      );
      if (done[0]!.done) return;
      await sleep(200);
    }
  } finally {
    await Promise.all([primary.end(), replica.end()]);
  }
}

/**
 * The CPU time of a PostgreSQL cluster on this machine: its postmaster (found as the parent
 * of our own backend) with what its exited children used, and its live children. Undefined
 * when the cluster runs elsewhere.
 */
async function clusterCpu(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let postmaster: number | undefined;
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    postmaster = statOf(rows[0]!.pid)?.ppid;
  } finally {
    await client.end();
  }
  if (!postmaster || !statOf(postmaster)?.command.includes('postgres')) return undefined;
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  const ticks = () => {
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    const own = statOf(postmaster!)!;
    return children.reduce(
      (sum, pid) => sum + (statOf(pid)?.ticks ?? 0),
      own.ticks + own.childTicks,
    );
  };
  const before = ticks();
  return {
    /** Cores used on average over the last `seconds`. */
    coresSince: (seconds: number) =>
      Number(((ticks() - before) / ticksPerSecond / seconds).toFixed(2)),
  };
}

/** /proc/<pid>/stat: parent, command, and CPU ticks of the process and of its reaped children. */
function statOf(pid: number) {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone, or not on this machine
  }
  // The command is in parentheses and may hold spaces; the fields after it are numbers.
  const command = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // After the command: state, ppid, …, utime (14th field of the line), stime, cutime, cstime.
  return {
    command,
    ppid: fields[1]!,
    ticks: fields[11]! + fields[12]!,
    childTicks: fields[13]! + fields[14]!,
  };
}
