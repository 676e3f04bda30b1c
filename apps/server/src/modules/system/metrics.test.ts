import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, API_PREFIX, MESSAGES, todayIn } from '@kanak/contract';
import { connectDatabase, type Database } from '../../db/client.js';
import { EXPIRY_QUEUE, JOBS_SCHEMA } from '../../jobs.js';
import {
  appOnDatabase,
  createTestDatabase,
  signedIn,
  type SignedIn,
  type TestDatabase,
} from '../../../test/helpers.js';
import { relayTo, type TcpRelay } from '../../../test/proxies.js';

/**
 * GET /metrics as Prometheus scrapes it: only with METRICS_TOKEN set and sent as the bearer
 * token; the request durations by route pattern, whatever paths clients make up; the database's
 * figures read at scrape time, and left out when the database does not answer in time.
 */

const TOKEN = 'metrics-token-for-tests-0123456789';
const MOBILE = '9822200071';

let ctx: SignedIn;
/** The same database, with METRICS_TOKEN set. */
let metered: FastifyInstance;

beforeAll(async () => {
  ctx = await signedIn('owner');
  metered = await appOnDatabase(ctx.database, { METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await metered?.close();
  await ctx?.close();
});

const scrape = async (app = metered) => {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
};

/** The value of the sample `series` (name and labels as the text writes them), if present. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** The histogram's series: one `_count` line per label set. */
const durationSeries = (text: string) =>
  text.split('\n').filter((line) => line.startsWith('kanak_http_request_duration_seconds_count{'));

describe('GET /metrics', () => {
  it('is not found, as any unknown path, while METRICS_TOKEN is unset', async () => {
    const unknown = await ctx.app.inject({ method: 'GET', url: '/no-such-thing.txt' });
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.notFound });
      expect(response.json()).toEqual(unknown.json());
    }
  });

  it('refuses a scraper without the token, with another one, or a staff token, with 401', async () => {
    const wrong = [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      'Bearer ',
      `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}`,
      `Bearer ${ctx.token}`,
    ];
    for (const authorization of wrong) {
      const response = await metered.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toEqual({
        success: false,
        message: MESSAGES.metricsTokenRequired,
      });
    }
  });

  it("answers Prometheus's text format with the server's, the database's and the process's metrics", async () => {
    // Something in each of the database's figures: a queued notice, a job waiting in its
    // queue, points issued and an installment paid today.
    const today = todayIn('Asia/Kolkata');
    const [customer] = await ctx.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ($1, 'Meera Iyer') RETURNING id`,
      [MOBILE],
    );
    await ctx.sql(
      `INSERT INTO notices (event, customer_id, mobile, text, status, created_at, not_before)
       VALUES ('pointsCredited', $1, $2, 'Hello', 'queued', now() - interval '90 seconds',
               now() - interval '60 seconds')`,
      [customer!.id, MOBILE],
    );
    const pool = new pg.Pool({ connectionString: ctx.database.pool.options.connectionString });
    const boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema: JOBS_SCHEMA,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.createQueue(EXPIRY_QUEUE, { name: EXPIRY_QUEUE, policy: 'singleton' });
    await boss.send(EXPIRY_QUEUE, {});
    await boss.stop({ graceful: false });
    await pool.end();
    const credited = await ctx.post(`${API_PREFIX}${API_PATHS.updatePoints}`, {
      formData: { MOBILENO: MOBILE, POINTS: '40', INVDATE: today, CASHCR: 'CR', NARRATION: '' },
    });
    expect(credited.statusCode, credited.body).toBe(200);
    const started = await ctx.post(`${API_PREFIX}${API_PATHS.generateScheme}`, {
      custid: customer!.id,
      mobileno: MOBILE,
      custname: 'Meera Iyer',
      startdt: today,
      amount: 2500,
    });
    expect(started.statusCode, started.body).toBe(200);
    const activated = await ctx.post(`${API_PREFIX}${API_PATHS.activateScheme}`, {
      schemeid: started.json<{ data: { schemeid: number } }>().data.schemeid,
      date: today,
      mode: 'upi',
    });
    expect(activated.statusCode, activated.body).toBe(200);
    await metered.inject({ method: 'GET', url: `${API_PREFIX}${API_PATHS.health}` });

    const response = await metered.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const text = response.body;
    expect(text).toContain('# TYPE kanak_http_request_duration_seconds histogram');
    expect(
      sample(
        text,
        'kanak_http_request_duration_seconds_count{method="GET",route="/api/health",status_code="200"}',
      ),
    ).toBe(1);
    for (const state of ['in_use', 'idle', 'waiting'])
      expect(sample(text, `kanak_db_pool_connections{state="${state}"}`)).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'kanak_scrape_source_up{source="database"}')).toBe(1);
    // The credit and the installment may have queued notices of their own.
    const [queued] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM notices WHERE status = 'queued'`,
    );
    expect(queued!.n).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'kanak_notices_queued')).toBe(queued!.n);
    expect(sample(text, 'kanak_notices_oldest_queued_seconds')).toBeGreaterThanOrEqual(90);
    expect(sample(text, 'kanak_notices_oldest_due_seconds')).toBeGreaterThanOrEqual(60);
    expect(sample(text, 'kanak_notices_oldest_due_seconds')).toBeLessThan(90);
    expect(sample(text, 'kanak_notices_last_24h{status="queued"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, `kanak_jobs{queue="${EXPIRY_QUEUE}",state="queued"}`)).toBe(1);
    expect(sample(text, `kanak_jobs{queue="${EXPIRY_QUEUE}",state="active"}`)).toBe(0);
    expect(sample(text, 'kanak_points_today{kind="issued"}')).toBe(40);
    expect(sample(text, 'kanak_points_today{kind="expired"}')).toBe(0);
    expect(sample(text, 'kanak_installments_today{mode="upi"}')).toBe(1);
    expect(sample(text, 'kanak_installments_today_rupees{mode="upi"}')).toBe(2500);
    // Node's own, as prom-client's default metrics name them.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds ');
    expect(text).toContain('nodejs_heap_size_used_bytes ');
    // No replica configured: no replica figures.
    expect(text).not.toContain('kanak_reports_replica');
  });

  it('labels a request by the route pattern it matched, never by the path asked for', async () => {
    const mobile = '9876501234';
    const answered = await metered.inject({
      method: 'GET',
      url: `${API_PREFIX}/pos/customers/${mobile}`,
    });
    expect(answered.statusCode).toBe(401);
    const text = await scrape();
    expect(
      sample(
        text,
        'kanak_http_request_duration_seconds_count{method="GET",route="/api/pos/customers/:mobile",status_code="401"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'kanak_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/pos/customers/:mobile",status_code="401"}',
      ),
    ).toBe(1);
    expect(text).not.toContain(mobile);
  });

  it('adds no series for the paths a client makes up: 50 unknown paths share one', async () => {
    await metered.inject({ method: 'GET', url: '/api/warm-up-unknown' });
    const before = durationSeries(await scrape());
    const made: string[] = [];
    for (let i = 0; i < 50; i++) {
      const word = randomUUID();
      made.push(word);
      const url = [`/api/${word}`, `/${word}`, `/api/pos/customers/1/${word}`][i % 3]!;
      const response = await metered.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
    const text = await scrape();
    const after = durationSeries(text);
    // The scrapes themselves are a series of their own, there from the first one.
    expect(after.length).toBe(before.length);
    expect(
      sample(
        text,
        'kanak_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}',
      ),
    ).toBeGreaterThanOrEqual(51);
    expect(made.filter((word) => text.includes(word))).toEqual([]);
  });

  it("shows the reports replica's state when REPORTS_DATABASE_URL is set", async () => {
    // The primary itself, which is no standby: its reads stay on the primary, and it says so.
    const replicated = await appOnDatabase(ctx.database, {
      METRICS_TOKEN: TOKEN,
      REPORTS_DATABASE_URL: ctx.database.pool.options.connectionString!,
    });
    try {
      const text = await scrape(replicated);
      expect(sample(text, 'kanak_scrape_source_up{source="replica"}')).toBe(1);
      expect(sample(text, 'kanak_reports_replica_state{state="not_a_standby"}')).toBe(1);
      expect(text).not.toMatch(/^kanak_reports_replica_lag_seconds /m);
    } finally {
      await replicated.close();
    }
  });
});

describe('GET /metrics with a database that does not answer', () => {
  let database: TestDatabase;
  let relay: TcpRelay;
  let connection: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    const through = await relayTo(database.url);
    relay = through.relay;
    connection = connectDatabase(through.url, { max: 5 });
    app = await appOnDatabase(connection, { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    relay?.resume();
    await app?.close();
    await connection?.close();
    await relay?.close();
    await database?.drop();
  });

  it('answers within its read timeout without the figures it could not read, asks the database once, and has them again once it answers', async () => {
    expect(sample(await scrape(app), 'kanak_scrape_source_up{source="database"}')).toBe(1);
    relay.stall();
    let stuck: number | undefined;
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const text = await scrape(app);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(sample(text, 'kanak_scrape_source_up{source="database"}')).toBe(0);
      expect(sample(text, 'kanak_scrape_source_seconds{source="database"}')).toBeGreaterThan(1.5);
      expect(text).not.toMatch(/^kanak_notices_queued /m);
      expect(text).not.toMatch(/^kanak_points_today\{/m);
      // The pool's own figures need no database. The first read's connection is stuck; the
      // scrapes after it take none more.
      const inUse = sample(text, 'kanak_db_pool_connections{state="in_use"}');
      expect(inUse).toBeGreaterThanOrEqual(1);
      stuck ??= inUse;
      expect(inUse).toBe(stuck);
    }
    relay.resume();
    await expect
      .poll(async () => sample(await scrape(app), 'kanak_scrape_source_up{source="database"}'), {
        timeout: 10_000,
      })
      .toBe(1);
    expect(sample(await scrape(app), 'kanak_notices_queued')).toBe(0);
  }, 60_000);
});
