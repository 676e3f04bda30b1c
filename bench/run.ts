/**
 * `npm run bench` — builds or reuses the benchmark data set (DESIGN §7) and measures the API
 * beside the same SQL run raw. `-- --quick` uses 1/100 of the data.
 *
 * Database: BENCH_DATABASE_URL, or an embedded PostgreSQL in bench/data.
 * Results: bench/results/latest.json (and a dated copy).
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type pg from 'pg';
import pino from 'pino';
import { todayIn } from '@kanak/contract';
import { connectDatabase } from '../apps/server/src/db/client.js';
import { openEmbeddedPostgres } from '../apps/server/src/db/embedded.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { loadDemoData, loadDemoSchemes } from '../apps/server/src/cli/load-demo.js';
import { createUsersService } from '../apps/server/src/modules/users/users.service.js';
import { resolveSecrets } from '../apps/server/src/lib/secrets.js';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const CUSTOMERS = args.quick ? 10_000 : 1_000_000;
const DURATION_S = args.quick ? 5 : 15;
const TARGETS = { searchP95Ms: 10, searchRatio: 2, statementP95Ms: 15, summaryOneMonthP95Ms: 100 };
const BENCH_USER = { username: 'bench', password: 'Bench@19280' };

async function main() {
  const dataDir = new URL('./data/', import.meta.url).pathname;
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const secrets = await resolveSecrets(dataDir, {});
  const embedded = process.env.BENCH_DATABASE_URL
    ? undefined
    : await openEmbeddedPostgres({
        dataDir,
        password: secrets.embeddedDbPassword,
        log: pino({ level: 'warn' }),
      });
  const url = process.env.BENCH_DATABASE_URL ?? embedded!.url;
  const database = connectDatabase(url, { max: 4 });
  try {
    await migrateDatabase(database.db);
    await ensureData(database.pool);
    await ensureSchemes(database.pool);
    await createUsersService({ db: database.db })
      .addUser(null, BENCH_USER.username, BENCH_USER.password)
      .catch(() => undefined);

    const server = await startServer(url);
    try {
      const token = await signIn(server.base);
      const samples = await sampleInputs(database.pool);
      const results = {
        machine: { cores: (await import('node:os')).cpus().length, node: process.version },
        dataSet: await countRows(database.pool),
        customerSearch: await measure(
          server.base,
          token,
          'GET',
          samples.searches.map(
            (s) => `/api/customers/get-all-customers?search=${encodeURIComponent(s)}`,
          ),
          undefined,
          (i) => rawSearch(database.pool, samples.searches[i]!),
        ),
        pointsStatement: await measure(
          server.base,
          token,
          'POST',
          samples.mobiles.map(() => '/api/customers/generate-statement'),
          (i) => ({ MOBILENO: samples.mobiles[i], DFROM: samples.from, DTO: samples.to }),
          (i) => rawStatement(database.pool, samples.mobiles[i]!, samples.from, samples.to),
        ),
        schemeSummaryOneMonth: await measure(
          server.base,
          token,
          'POST',
          MONTHS.map(() => '/api/scheme/generate-summary'),
          (i) => ({ selected: 'All', formData: { mobileno: '', ...MONTHS[i]! } }),
          (i) => rawSummary(database.pool, MONTHS[i]!),
        ),
        targets: TARGETS,
        at: new Date().toISOString(),
        quick: args.quick,
      };
      await mkdir(new URL('./results/', import.meta.url), { recursive: true });
      const json = JSON.stringify(results, null, 2);
      await writeFile(new URL('./results/latest.json', import.meta.url), json);
      await writeFile(
        new URL(
          `./results/${results.at.slice(0, 10)}${args.quick ? '-quick' : ''}.json`,
          import.meta.url,
        ),
        json,
      );
      console.log(json);
    } finally {
      server.stop();
    }
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

async function ensureData(pool: pg.Pool) {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
  if (rows[0]!.n >= CUSTOMERS) return;
  console.log(`loading ${CUSTOMERS - rows[0]!.n} customers with their ledgers (COPY)...`);
  const started = Date.now();
  await loadDemoData(pool, {
    customers: CUSTOMERS - rows[0]!.n,
    entriesPerCustomer: 10,
    today: todayIn('Asia/Kolkata'),
    onProgress: console.log,
  });
  console.log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** One scheme per customer (about 5 installments each): 1,000,000 and ~5,000,000 at full scale. */
async function ensureSchemes(pool: pg.Pool) {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM schemes');
  if (rows[0]!.n >= CUSTOMERS) return;
  console.log(`loading ${CUSTOMERS - rows[0]!.n} schemes with their installments (COPY)...`);
  const started = Date.now();
  await loadDemoSchemes(pool, {
    firstCustomer: rows[0]!.n,
    count: CUSTOMERS - rows[0]!.n,
    installments: 11,
    today: todayIn('Asia/Kolkata'),
    onProgress: console.log,
  });
  console.log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function countRows(pool: pg.Pool) {
  const { rows } = await pool.query(
    `SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM points_entries)::int AS ledger_rows, (SELECT count(*) FROM schemes)::int AS schemes, (SELECT count(*) FROM scheme_installments)::int AS installments`,
  );
  return rows[0];
}

/** Search texts staff type: mobile prefixes and name parts; customers with a busy ledger. */
async function sampleInputs(pool: pg.Pool) {
  const { rows } = await pool.query<{ mobileno: string; custname: string }>(
    `SELECT mobileno, custname FROM customers TABLESAMPLE SYSTEM (1) LIMIT 200`,
  );
  const searches = rows.flatMap((r, i) => [
    r.mobileno.slice(0, 5 + (i % 4)),
    nameWord(r.custname, i % 2)
      .slice(0, 3 + (i % 4))
      .toLowerCase(),
  ]);
  const today = todayIn('Asia/Kolkata');
  return {
    searches,
    mobiles: rows.map((r) => r.mobileno),
    from: `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`,
    to: today,
  };
}

const nameWord = (name: string, index: number) => name.split(' ')[index] ?? name;

/** The same SQL the search service runs, straight through pg. */
async function rawSearch(pool: pg.Pool, text: string) {
  if (/^\d+$/.test(text)) {
    return pool.query(
      `SELECT custname, mobileno FROM customers WHERE mobileno LIKE $1 ORDER BY mobileno LIMIT 20`,
      [`${text}%`],
    );
  }
  const starting = await pool.query(
    `SELECT custname, mobileno FROM customers WHERE lower(custname) LIKE $1 ORDER BY lower(custname), mobileno LIMIT 20`,
    [`${text.toLowerCase()}%`],
  );
  if (starting.rowCount === 20 || text.length < 3) return starting;
  return pool.query(`SELECT custname, mobileno FROM customers WHERE custname ILIKE $1 LIMIT 40`, [
    `%${text}%`,
  ]);
}

/** The last twelve calendar months, as summary filters. */
const MONTHS = Array.from({ length: 12 }, (_, k) => {
  const first = new Date();
  first.setUTCDate(1);
  first.setUTCMonth(first.getUTCMonth() - k - 1);
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  return { datefrom: first.toISOString().slice(0, 10), dateto: last.toISOString().slice(0, 10) };
});

async function rawSummary(pool: pg.Pool, month: { datefrom: string; dateto: string }) {
  return pool.query(
    `SELECT s.id AS schemeid, c.custname, c.mobileno, s.startdt, s.amount, s.status AS matyn
     FROM schemes s JOIN customers c ON c.id = s.customer_id
     WHERE s.status IN ('n', 'a', 'm') AND s.startdt BETWEEN $1 AND $2
     ORDER BY s.startdt, s.id`,
    [month.datefrom, month.dateto],
  );
}

async function rawStatement(pool: pg.Pool, mobileno: string, from: string, to: string) {
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM customers WHERE mobileno = $1`,
    [mobileno],
  );
  const id = rows[0]!.id;
  await Promise.all([
    pool.query(
      `SELECT coalesce(sum(credit - debit), 0), count(*) FROM points_entries WHERE customer_id = $1 AND invdate < $2`,
      [id, from],
    ),
    pool.query(
      `SELECT * FROM points_entries WHERE customer_id = $1 AND invdate BETWEEN $2 AND $3 ORDER BY invdate, mrn`,
      [id, from, to],
    ),
  ]);
}

/** autocannon at 1, 8 and 32 connections, p95 of the server's own time (Server-Timing), and raw SQL p95. */
async function measure(
  base: string,
  token: string,
  method: 'GET' | 'POST',
  paths: string[],
  body: ((i: number) => unknown) | undefined,
  raw: (i: number) => Promise<unknown>,
) {
  const runs: Record<string, unknown> = {};
  for (const connections of [1, 8, 32]) {
    const serverTimes: number[] = [];
    let i = 0;
    const result = await autocannon({
      url: base,
      connections,
      duration: DURATION_S,
      requests: [
        {
          setupRequest: (request) => {
            const n = i++ % paths.length;
            return {
              ...request,
              method,
              path: paths[n]!,
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: body ? JSON.stringify(body(n)) : undefined,
            };
          },
          onResponse: (status, _body, _context, headers) => {
            const timing = /dur=([\d.]+)/.exec(
              String((headers as Record<string, string>)['server-timing'] ?? ''),
            );
            if (status === 200 && timing) serverTimes.push(Number(timing[1]));
          },
        },
      ],
    });
    runs[`c${connections}`] = {
      requestsPerSecond: Math.round(result.requests.average),
      errors: result.errors + result.non2xx,
      latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99 },
      serverTimeMs: percentiles(serverTimes),
    };
  }
  const rawTimes: number[] = [];
  for (let n = 0; n < Math.min(2000, paths.length * 5); n++) {
    const started = performance.now();
    await raw(n % paths.length);
    rawTimes.push(performance.now() - started);
  }
  const serverP95 = (runs.c1 as { serverTimeMs: { p95: number } }).serverTimeMs.p95;
  const rawSql = percentiles(rawTimes);
  return {
    ...runs,
    rawSqlMs: rawSql,
    ratioServerToRawP95: Number((serverP95 / rawSql.p95).toFixed(2)),
  };
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    Number(
      (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(2),
    );
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99) };
}

async function startServer(databaseUrl: string) {
  const port = 3900 + Math.floor(Math.random() * 50);
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: new URL('./data/', import.meta.url).pathname,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { base, stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start (run `npm run build` first)');
}

async function signIn(base: string) {
  const response = await fetch(`${base}/api/login/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ USERNAME: BENCH_USER.username, PASSWORD: BENCH_USER.password }),
  });
  const body = (await response.json()) as { accessToken?: string };
  if (!body.accessToken) throw new Error('bench user cannot sign in');
  return body.accessToken;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
