/**
 * `npm run bench` — builds or reuses the benchmark data set and measures the five
 * requests of its targets with autocannon at 1, 8 and 32 connections, each beside the same SQL
 * run raw through pg at the same concurrency; then start times and the login page's JS.
 * `-- --quick`: 1/100 of the data and short runs (a smoke test; its figures are not the targets').
 * `-- --data-only`: build or check the data set, measure nothing.
 * `-- --profile <request>`: one request kind at 8 connections under `--cpu-prof` (bench/profile.ts).
 * `-- --only <request>`: one request kind measured and printed; the saved results stay as they are.
 *
 * Database: BENCH_DATABASE_URL, or an embedded PostgreSQL in bench/data (bench/data-quick).
 * Needs `npm run build` first. Results: bench/results/latest.json and docs/performance.md.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import pino from 'pino';
import { connectDatabase } from '../apps/server/src/db/client.js';
import { openEmbeddedPostgres } from '../apps/server/src/db/embedded.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { createUsersService } from '../apps/server/src/modules/users/users.service.js';
import { resolveSecrets } from '../apps/server/src/lib/secrets.js';
import {
  countRows,
  ensureDataSet,
  ensureLongStatements,
  sampleInputs,
  undoBenchWrites,
} from './data.js';
import { measure, type Scenario } from './measure.js';
import { newestProfile, PROFILE_DIR, summarizeProfile } from './profile.js';
import { saveResults, type Results } from './report.js';
import { scenarios } from './scenarios.js';
import { BENCH_USER, signIn, startServer } from './server.js';
import { loginPageJsGzipKb, startTimes } from './startup.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    // Load (or check) the data set and stop: for looking at plans before a run.
    'data-only': { type: 'boolean', default: false },
    profile: { type: 'string' },
    only: { type: 'string' },
  },
});
const CUSTOMERS = args.quick ? 10_000 : 1_000_000;
const DURATION_S = args.quick ? 3 : 15;
const CONNECTIONS = [1, 8, 32];

async function main() {
  const dataDir = new URL(args.quick ? './data-quick/' : './data/', import.meta.url).pathname;
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const secrets = await resolveSecrets(dataDir, {});
  const embedded = process.env.BENCH_DATABASE_URL
    ? undefined
    : await openEmbeddedPostgres({
        dataDir,
        password: secrets.embeddedDbPassword,
        log: pino({ level: 'warn' }),
      });
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? embedded!.url;
  const database = connectDatabase(databaseUrl, { max: 4 });
  try {
    await migrateDatabase(database.db);
    await ensureDataSet(database.pool, CUSTOMERS);
    if (args['data-only']) return;
    const benchUserId = await ensureBenchUser(database);
    await undoBenchWrites(database.pool, benchUserId);
    const samples = await sampleInputs(database.pool);
    await ensureLongStatements(database.pool, samples);
    const named = (name: string) => {
      const scenario = scenarios(samples, benchUserId).find((s) => s.name === name);
      if (!scenario) throw new Error(`no request kind named ${name}`);
      return scenario;
    };
    if (args.profile) {
      await profile(named(args.profile), databaseUrl, dataDir);
      return;
    }
    if (args.only) {
      const runs = await measureOnOwnServer(named(args.only), databaseUrl, dataDir, CONNECTIONS);
      console.log(JSON.stringify(runs, null, 2));
      return;
    }
    const measured: Results['scenarios'] = {};
    for (const scenario of scenarios(samples, benchUserId)) {
      // A server of its own per request kind: the export's RSS is then the export's, not the
      // heap that earlier runs left behind (V8 seldom gives memory back).
      measured[scenario.name] = await measureOnOwnServer(
        scenario,
        databaseUrl,
        dataDir,
        CONNECTIONS,
      );
    }
    const results: Results = {
      at: new Date().toISOString(),
      quick: args.quick,
      machine: await describeMachine(database.pool),
      dataSet: await countRows(database.pool),
      scenarios: measured,
      start: await startTimes(),
      loginJsGzipKb: loginPageJsGzipKb(),
    };
    await saveResults(results);
    console.log(JSON.stringify({ start: results.start, loginJsGzipKb: results.loginJsGzipKb }));
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

async function measureOnOwnServer(
  scenario: Scenario,
  databaseUrl: string,
  dataDir: string,
  connections: number[],
  nodeArgs: string[] = [],
) {
  const server = await startServer(databaseUrl, dataDir, nodeArgs);
  try {
    const target = {
      base: server.base,
      token: await signIn(server.base),
      databaseUrl,
      serverPid: server.pid,
      durationS: DURATION_S,
    };
    return await measure(target, scenario, connections);
  } finally {
    await server.stop(); // a clean stop, so --cpu-prof writes its profile
  }
}

async function profile(scenario: Scenario, databaseUrl: string, dataDir: string) {
  await mkdir(PROFILE_DIR, { recursive: true });
  await measureOnOwnServer(
    scenario,
    databaseUrl,
    dataDir,
    [8],
    ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`],
  );
  console.log(await summarizeProfile(await newestProfile()));
}

async function ensureBenchUser(database: ReturnType<typeof connectDatabase>) {
  await createUsersService({ db: database.db })
    .addUser(null, BENCH_USER.username, BENCH_USER.password, 'owner')
    .catch(() => undefined); // already there from an earlier run
  const { rows } = await database.pool.query<{ id: number }>(
    `SELECT id FROM users WHERE lower(username) = $1`,
    [BENCH_USER.username],
  );
  return rows[0]!.id;
}

async function describeMachine(pool: pg.Pool) {
  const setting = async (name: string) =>
    (await pool.query<{ value: string }>(`SELECT current_setting($1) AS value`, [name])).rows[0]!
      .value;
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' '),
    node: process.version,
    postgres: await setting('server_version'),
    database: process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL' : 'embedded',
    fsync: await setting('fsync'),
    synchronousCommit: await setting('synchronous_commit'),
    sharedBuffers: await setting('shared_buffers'),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
