/**
 * `npm run bench` — builds or reuses the benchmark data set and measures the five
 * requests of its targets with autocannon at 1, 8 and 32 connections, each beside the same SQL
 * run raw through pg at the same concurrency; then the points expiry, the notices' sender
 * (BENCH_NOTICE_RATE a second, default 150), the import of 100,000 customers through the server's
 * route (bench/import.ts), start times and the login page's JS.
 * `-- --quick`: 1/100 of the data and short runs (a smoke test; its figures are not the targets').
 * `-- --data-only`: build or check the data set, measure nothing.
 * `-- --profile <request>`: one request kind at 8 connections (`--connections N` for others) under
 * `--cpu-prof` (bench/profile.ts).
 * `-- --only <request>`: one request kind measured and printed (`expiry`, `import`: that step); the
 *   saved results stay as they are. With `--connections N`, at that concurrency only. `import`
 *   needs no data set: it makes a database of its own.
 * `-- --only member-codes`: the sign-in code request for customers' and strangers' numbers, their
 *   medians (bench/member-codes.ts), on a database of its own; `--from-source` runs that server
 *   from its TypeScript source rather than the build.
 * `-- --replica`: the reports read from the primary, then from a streaming replica (bench/replica.ts).
 * `-- --tally`: the Tally export of a month of a 10-branch chain, in a data set of its own
 *   (bench/data-tally; bench/tally.ts), timed once and printed.
 * `-- --customers N`: a data set of N customers (its own, in bench/data-N, without the audit
 * trail), and only the requests whose figures are asked at other scales; results in
 * bench/results/customers-N.json.
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
import { branchesRepo } from '../apps/server/src/modules/branches/branches.repo.js';
import { createApiKeysService } from '../apps/server/src/modules/integrations/api-keys.service.js';
import { hashApiKey } from '../apps/server/src/plugins/auth.js';
import { resolveSecrets } from '../apps/server/src/lib/secrets.js';
import { countRows, ensureDataSet, ensureLongStatements, sampleInputs } from './data.js';
import { EXPIRY_TODAY, makeDueLots, timeExpiry } from './expiry.js';
import { removeBenchLots, undoBenchWrites } from './take-back.js';
import { makeBenchNotices, removeBenchNotices, sendBenchNotices } from './notices.js';
import { startFakeWhatsApp } from '../apps/server/test/fake-whatsapp.js';
import { measure, overHttp, type Scenario } from './measure.js';
import { newestProfile, PROFILE_DIR, summarizeProfile } from './profile.js';
import { saveResults, saveScaleResults, type ImportResults, type Results } from './report.js';
import { openReplicaPair, replicaStep } from './replica.js';
import { benchMembers } from './members.js';
import { scenarios, type BenchKey } from './scenarios.js';
import { ensureOverdueSchemes } from './reports.js';
import { tallyStep } from './tally.js';
import { importOverHttp } from './import.js';
import { memberCodesStep } from './member-codes.js';
import { BENCH_USER, signIn, startServer } from './server.js';
import { loginPageJsGzipKb, startTimes } from './startup.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    // Load (or check) the data set and stop: for looking at plans before a run.
    'data-only': { type: 'boolean', default: false },
    profile: { type: 'string' },
    // --profile's concurrency (8 unless given); with --only, the one concurrency measured.
    connections: { type: 'string' },
    only: { type: 'string' },
    replica: { type: 'boolean', default: false },
    customers: { type: 'string' },
    tally: { type: 'boolean', default: false },
    'from-source': { type: 'boolean', default: false },
  },
});
const SCALE = args.customers === undefined ? undefined : Number(args.customers);
if (SCALE !== undefined && !(Number.isSafeInteger(SCALE) && SCALE >= 1_000)) {
  console.error('--customers takes a whole number of customers, at least 1000');
  process.exit(2);
}
if (
  args.connections !== undefined &&
  !(Number(args.connections) >= 1 && Number.isSafeInteger(Number(args.connections)))
) {
  console.error('--connections takes a whole number, at least 1');
  process.exit(2);
}
const CUSTOMERS = SCALE ?? (args.quick ? 10_000 : 1_000_000);
/** The requests measured at another scale: those whose figures must hold as the data grows. */
const AT_ANY_SCALE = [
  'customerSearch',
  'pointsStatement',
  'pointsUpdate',
  'summaryPage',
  'customerExportCsv',
];
const DURATION_S = args.quick ? 3 : 15;
const CONNECTIONS = [1, 8, 32];
/** Due points lots expired by the expiry step: one per customer at full scale. */
const DUE_LOTS = args.quick ? 10_000 : 1_000_000;
/** Queued reminders sent by the notices step, and the rate it is configured to send at. */
const NOTICES = args.quick ? 5_000 : 100_000;
const NOTICE_RATE = Number(process.env.BENCH_NOTICE_RATE ?? 150);

async function main() {
  const dataDir = new URL(
    args.tally
      ? './data-tally/'
      : args.quick
        ? './data-quick/'
        : SCALE
          ? `./data-${SCALE}/`
          : './data/',
    import.meta.url,
  ).pathname;
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const secrets = await resolveSecrets(dataDir, {});
  const pair = args.replica ? await openReplicaPair() : undefined;
  const external = pair?.primaryUrl ?? process.env.BENCH_DATABASE_URL;
  const embedded = external
    ? undefined
    : await openEmbeddedPostgres({
        dataDir,
        password: secrets.embeddedDbPassword,
        log: pino({ level: 'warn' }),
      });
  const databaseUrl = external ?? embedded!.url;
  const database = connectDatabase(databaseUrl, { max: 4 });
  try {
    await migrateDatabase(database.db);
    if (args.tally) {
      console.log(JSON.stringify(await tallyStep(database), null, 2));
      return;
    }
    // Before the data set: the import makes a database of its own, and building (or checking)
    // the million customers would only delay it.
    if (args.only === 'member-codes') {
      const codes = await memberCodesStep({
        databaseUrl,
        dataDir,
        fromSource: args['from-source'],
      });
      console.log(JSON.stringify(codes, null, 2));
      return;
    }
    if (args.only === 'import') {
      console.log(JSON.stringify(await importStep(databaseUrl, dataDir), null, 2));
      return;
    }
    // The audit trail is measured at the benchmark's scale only: at ten times the customers
    // its 100,000,000 rows (about 47 GB) would not fit beside the rest (about 50 GB) on the
    // disks of the machines it runs on.
    await ensureDataSet(database, CUSTOMERS, { auditTrail: !SCALE });
    if (args['data-only']) return;
    const benchUserId = await ensureBenchUser(database);
    await undoBenchWrites(database.pool, benchUserId);
    const benchKey = await benchApiKey(database);
    const samples = await sampleInputs(database.pool);
    const members = await benchMembers(database.pool, secrets.jwtSecret);
    await ensureLongStatements(database, samples);
    await ensureOverdueSchemes(database.pool);
    const named = (name: string) => {
      const scenario = scenarios(samples, benchUserId, benchKey, members).find(
        (s) => s.name === name,
      );
      if (!scenario) throw new Error(`no request kind named ${name}`);
      return scenario;
    };
    if (args.profile) {
      await profile(named(args.profile), databaseUrl, dataDir, Number(args.connections ?? 8));
      return;
    }
    if (pair) {
      await replicaStep({
        pair,
        scenarios: scenarios(samples, benchUserId, benchKey, members),
        dataDir,
        durationS: DURATION_S,
        quick: args.quick,
        dataSet: await countRows(database.pool),
      });
      return;
    }
    if (args.only === 'expiry') {
      const expiry = await expiryStep(database, named('posSale'), databaseUrl, dataDir);
      console.log(JSON.stringify(expiry, null, 2));
      return;
    }
    if (args.only) {
      const scenario = named(args.only);
      const runs = await measureOnOwnServer(
        scenario,
        databaseUrl,
        dataDir,
        args.connections === undefined ? connectionsFor(scenario) : [Number(args.connections)],
      );
      console.log(JSON.stringify(runs, null, 2));
      return;
    }
    const measured: Results['scenarios'] = {};
    const measuredHere = scenarios(samples, benchUserId, benchKey, members).filter(
      (scenario) => !SCALE || AT_ANY_SCALE.includes(scenario.name),
    );
    for (const scenario of measuredHere) {
      // A server of its own per request kind: the export's RSS is then the export's, not the
      // heap that earlier runs left behind (V8 seldom gives memory back).
      measured[scenario.name] = await measureOnOwnServer(
        scenario,
        databaseUrl,
        dataDir,
        connectionsFor(scenario),
      );
    }
    if (SCALE) {
      const file = await saveScaleResults(SCALE, {
        at: new Date().toISOString(),
        machine: await describeMachine(database.pool),
        dataSet: await countRows(database.pool),
        scenarios: measured,
      });
      console.log(`results in ${file}`);
      return;
    }
    const expiry = await expiryStep(database, named('posSale'), databaseUrl, dataDir);
    const notices = await noticesStep(
      database,
      named('customerSearch'),
      databaseUrl,
      dataDir,
      secrets.dataKey,
    );
    const imported = await importStep(databaseUrl, dataDir);
    const results: Results = {
      at: new Date().toISOString(),
      quick: args.quick,
      machine: await describeMachine(database.pool),
      dataSet: await countRows(database.pool),
      scenarios: measured,
      expiry,
      notices,
      import: imported,
      start: await startTimes(),
      loginJsGzipKb: loginPageJsGzipKb(),
    };
    await saveResults(results);
    console.log(JSON.stringify({ start: results.start, loginJsGzipKb: results.loginJsGzipKb }));
  } finally {
    await database.close();
    await embedded?.stop();
    await pair?.close();
  }
}

/**
 * At another scale the export's figure is one export's memory as the rows grow; 32 concurrent
 * ten-million-row exports would take hours.
 */
const connectionsFor = (scenario: Scenario) => (SCALE && scenario.streamed ? [1] : CONNECTIONS);

async function measureOnOwnServer(
  scenario: Scenario,
  databaseUrl: string,
  dataDir: string,
  connections: number[],
  nodeArgs: string[] = [],
) {
  // The jobs off: a request kind is measured alone (the expiry and the notices have steps of
  // their own), and the daily reminders would otherwise write a notice for every scheme due.
  const server = await startServer(databaseUrl, dataDir, nodeArgs, { JOBS: 'off' });
  try {
    return await measure(await signedInTarget(server, databaseUrl), scenario, connections);
  } finally {
    await server.stop(); // a clean stop, so --cpu-prof writes its profile
  }
}

/** The requests' target: the server, with the bench user signed in. */
async function signedInTarget(server: { base: string; pid: number }, databaseUrl: string) {
  return {
    base: server.base,
    token: await signIn(server.base),
    databaseUrl,
    serverPid: server.pid,
    durationS: DURATION_S,
  };
}

async function profile(
  scenario: Scenario,
  databaseUrl: string,
  dataDir: string,
  connections: number,
) {
  await mkdir(PROFILE_DIR, { recursive: true });
  await measureOnOwnServer(
    scenario,
    databaseUrl,
    dataDir,
    [connections],
    ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`],
  );
  console.log(await summarizeProfile(await newestProfile()));
}

/**
 * The import of 100,000 customers with opening points (1,000 in quick mode) posted to the
 * import route of a server of its own (bench/import.ts): its peak memory is then the import's.
 * It makes and drops a database of its own on the bench's server.
 */
async function importStep(databaseUrl: string, dataDir: string): Promise<ImportResults> {
  const result = await importOverHttp({
    databaseUrl,
    dataDir,
    customers: args.quick ? 1_000 : 100_000,
  });
  console.log(
    `import of ${result.customers} customers through ${result.via}: ${result.seconds} s, server RSS ${result.peakRssMb} MB (${result.rssBeforeMb} MB before), server CPU ${result.serverCpuSeconds} s, load ${result.loadAverage}`,
  );
  return result;
}

/**
 * The expiry of DUE_LOTS due lots (made by SQL, taken back after), timed once with nothing
 * else running and once while counters post sales at 8 connections; the sales' p95 idle (on
 * the same server, just before) beside their p95 during the expiry.
 */
async function expiryStep(
  database: ReturnType<typeof connectDatabase>,
  posSale: Scenario,
  databaseUrl: string,
  dataDir: string,
) {
  await removeBenchLots(database.pool);
  await makeDueLots(database, DUE_LOTS);
  const idle = await timeExpiry(database.db, database.pool);
  console.log(`expiry of ${idle.lots} lots, idle: ${idle.seconds} s`);
  await removeBenchLots(database.pool);
  await makeDueLots(database, DUE_LOTS);
  // Its own expiry job off: that would expire the bench's lots by today's date meanwhile.
  const server = await startServer(databaseUrl, dataDir, [], { JOBS: 'off' });
  try {
    const target = {
      base: server.base,
      token: '',
      databaseUrl,
      serverPid: server.pid,
      durationS: DURATION_S,
    };
    const salesIdle = await overHttp(target, posSale, 8);
    // The sales run for as long as the expiry does (at least the usual duration).
    let expiring = true;
    const during = timeExpiry(database.db, database.pool).finally(() => (expiring = false));
    const salesDuring = await overHttp(target, posSale, 8, () => expiring);
    const busy = await during;
    console.log(
      `expiry of ${busy.lots} lots while sales post: ${busy.seconds} s; sales p95 ${salesIdle.serverTimeMs.p95} ms idle, ${salesDuring.serverTimeMs.p95} ms during`,
    );
    return {
      lots: DUE_LOTS,
      today: EXPIRY_TODAY,
      idleSeconds: idle.seconds,
      busySeconds: busy.seconds,
      salesIdle,
      salesDuring,
      loadAverage: os.loadavg()[0]!.toFixed(2),
    };
  } finally {
    await server.stop();
    await removeBenchLots(database.pool);
  }
}

/**
 * NOTICES queued reminders sent by a notices worker to a local fake provider at NOTICE_RATE a
 * second (BENCH_NOTICE_RATE), counted at the fake (each once, none lost); the API's p95 on
 * customer search (1 connection) just before, beside the same while the worker sends.
 */
async function noticesStep(
  database: ReturnType<typeof connectDatabase>,
  search: Scenario,
  databaseUrl: string,
  dataDir: string,
  dataKey: string,
) {
  await removeBenchNotices(database.pool);
  const fake = await startFakeWhatsApp();
  const server = await startServer(databaseUrl, dataDir, [], { JOBS: 'off' });
  try {
    const target = await signedInTarget(server, databaseUrl);
    const searchIdle = await overHttp(target, search, 1);
    await makeBenchNotices(database.pool, NOTICES, dataKey);
    let sending = true;
    const sent = sendBenchNotices(database.pool, fake, {
      databaseUrl,
      notices: NOTICES,
      rate: NOTICE_RATE,
      dataKey,
    }).finally(() => (sending = false));
    const searchDuring = await overHttp(target, search, 1, () => sending);
    const run = await sent;
    console.log(
      `notices: ${run.delivered} of ${run.notices} in ${run.seconds} s (${run.achievedPerSecond}/s, configured ${run.rate}/s), ${run.duplicates} twice, ${run.lost} lost; search p95 ${searchIdle.serverTimeMs.p95} ms idle, ${searchDuring.serverTimeMs.p95} ms while sending`,
    );
    return { ...run, searchIdle, searchDuring, loadAverage: os.loadavg()[0]!.toFixed(2) };
  } finally {
    await server.stop();
    await fake.close();
    await removeBenchNotices(database.pool);
  }
}

/** An API key for the bench's counter, made anew each run (shown once, as for a shop). */
async function benchApiKey(database: ReturnType<typeof connectDatabase>): Promise<BenchKey> {
  const { key } = await createApiKeysService({ db: database.db, branches: branchesRepo }).add(
    null,
    { label: 'Bench counter' },
  );
  return { key, hash: hashApiKey(key) };
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
