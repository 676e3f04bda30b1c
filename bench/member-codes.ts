/**
 * The sign-in code request, `POST /api/member/otp`, for a customer's number and for a number
 * that is no customer's: both must take the same time, or the time tells who is a customer.
 * On the server started as the bench starts its servers (jobs off, the messaging panel set up
 * and pointing at the fake provider, so a customer's code is really sent), against a database
 * made for the run on the bench's database server (migrated, then dropped): N customers, then
 * N pairs of requests one after another, each pair one customer's number and one stranger's,
 * in turn which goes first, after 20 pairs to warm up. Every request is a number and an address
 * of its own (`X-Forwarded-For`, the server trusting the bench as its proxy), so no limit is
 * reached. Timed from the request sent to the answer read, by the client.
 *
 * `npm run bench -- --only member-codes` runs it (without the benchmark data set); add
 * `--from-source` to run the server from its TypeScript source instead of the build.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { API_PATHS, API_PREFIX, MEMBER_API_PATHS } from '@kanak/contract';
import { connectDatabase } from '../apps/server/src/db/client.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { createUsersService } from '../apps/server/src/modules/users/users.service.js';
import { startFakeWhatsApp } from '../apps/server/test/fake-whatsapp.js';
import { BENCH_USER, signIn, startServer } from './server.js';

const WARM_UP_PAIRS = 20;

export interface MemberCodesResults {
  pairs: number;
  /** Medians and 90th percentiles, milliseconds. */
  customer: { medianMs: number; p90Ms: number };
  stranger: { medianMs: number; p90Ms: number };
  /** The customer's median less the stranger's. */
  differenceMs: number;
  codesSent: number;
  loadAverage: string;
  via: string;
}

const quantile = (times: number[], q: number) => {
  const sorted = times.toSorted((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2));
};

export async function memberCodesStep({
  databaseUrl,
  dataDir,
  pairs = 200,
  fromSource = false,
}: {
  /** The bench's database: its server hosts the run's own database; it is not touched. */
  databaseUrl: string;
  /** The servers' DATA_DIR (their secrets), as the other steps start them. */
  dataDir: string;
  pairs?: number;
  /** The server from its TypeScript source (tsx) rather than the build. */
  fromSource?: boolean;
}): Promise<MemberCodesResults> {
  const name = `kanak_bench_codes_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const database = connectDatabase(url.toString(), { max: 2 });
  const fake = await startFakeWhatsApp();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await migrateDatabase(database.db);
    await createUsersService({ db: database.db }).addUser(
      null,
      BENCH_USER.username,
      BENCH_USER.password,
      'owner',
    );
    const total = WARM_UP_PAIRS + pairs;
    await database.pool.query(
      `INSERT INTO customers (mobileno, custname)
       SELECT (7000000000 + g)::text, 'Bench member ' || g FROM generate_series(1, $1) g`,
      [total],
    );
    server = await startServer(
      url.toString(),
      dataDir,
      fromSource ? ['--import', 'tsx', '--conditions=@kanak/source'] : [],
      { JOBS: 'off', TRUST_PROXY: '127.0.0.1', MESSAGING_PANEL1_URL: fake.url },
      fromSource ? 'apps/server/src/main.ts' : undefined,
    );
    const base = server.base;
    const token = await signIn(base);
    const panel = await fetch(`${base}${API_PREFIX}${API_PATHS.panelSetup}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        formData: { instanceid: 'bench', token: 'bench-token', panel: 1, phone: '9000000099' },
      }),
    });
    if (!panel.ok) throw new Error(`panel setup answered ${panel.status}`);

    const ask = async (mobile: string, address: string) => {
      const started = performance.now();
      const response = await fetch(`${base}${API_PREFIX}${MEMBER_API_PATHS.memberOtp}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ mobile }),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`${mobile}: answered ${response.status}`);
      return performance.now() - started;
    };
    const customer: number[] = [];
    const stranger: number[] = [];
    for (let i = 1; i <= total; i += 1) {
      const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      const known = () => ask(String(7_000_000_000 + i), address(2 * i));
      const unknown = () => ask(String(8_000_000_000 + i), address(2 * i + 1));
      let times: [number, number];
      if (i % 2 === 0) times = [await known(), await unknown()];
      else {
        const first = await unknown();
        times = [await known(), first];
      }
      if (i > WARM_UP_PAIRS) {
        customer.push(times[0]);
        stranger.push(times[1]);
      }
    }
    // The codes go out after the answers: give the last ones a moment.
    for (let i = 0; i < 50 && fake.messages.length < total; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return {
      pairs,
      customer: { medianMs: quantile(customer, 0.5), p90Ms: quantile(customer, 0.9) },
      stranger: { medianMs: quantile(stranger, 0.5), p90Ms: quantile(stranger, 0.9) },
      differenceMs: Number((quantile(customer, 0.5) - quantile(stranger, 0.5)).toFixed(2)),
      codesSent: fake.messages.length,
      loadAverage: os.loadavg()[0]!.toFixed(2),
      via: `POST ${API_PREFIX}${MEMBER_API_PATHS.memberOtp}`,
    };
  } finally {
    await server?.stop();
    await fake.close();
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
