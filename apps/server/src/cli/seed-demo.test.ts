import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kanak/contract';
import {
  addUser,
  appOnDatabase,
  authed,
  createTestDatabase,
  login,
  TEST_SECRETS,
  type TestContext,
  type TestDatabase,
} from '../../test/helpers.js';
import { expectSummariesAgree } from '../../test/summaries.js';
import { connectDatabase, type Database } from '../db/client.js';
import { checkLedger } from '../modules/points/points.ledger-check.js';

/**
 * `npm run seed:demo` (its default: 300 customers with about ten ledger rows each, and
 * schemes) run for real on a database of its own; then the demo customers are used as any
 * customer is: their points redeemed at a counter, the dashboard and reports read.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
let database: TestDatabase;
let connection: Database;
let app: FastifyInstance;
let ctx: TestContext;
let owner: string;
let posKey: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await promisify(execFile)(
    'npx',
    ['tsx', '--conditions=@kanak/source', path.join('apps/server/src/cli/seed-demo.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-seed-')),
        JWT_SECRET: TEST_SECRETS.jwtSecret,
        DATA_KEY: TEST_SECRETS.dataKey,
      },
      timeout: 120_000,
    },
  );
  connection = connectDatabase(database.url, { max: 5 });
  app = await appOnDatabase(connection);
  ctx = {
    app,
    database: connection,
    sql: async (text, values) => (await connection.pool.query(text, values)).rows,
    close: async () => {},
  };
  await addUser(ctx, 'owner1', 'Kanak@1928x', 'owner');
  owner = await login(ctx, 'owner1', 'Kanak@1928x');
  const made = await call('POST', '/api/settings/api-keys', { label: 'Counter 1' });
  expect(made.statusCode, made.body).toBe(200);
  posKey = made.json<{ data: { key: string } }>().data.key;
}, 180_000);
afterAll(async () => {
  await app?.close();
  await connection?.close();
  await database?.drop();
});

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject(
    authed(owner, {
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    }),
  );
const redeem = (payload: { invoiceNo: string; mobile: string; points: number }) =>
  app.inject({
    method: 'POST',
    url: '/api/pos/redemptions',
    payload,
    headers: { 'x-api-key': posKey },
  });

/** Customers whose balance, ledger sum and open lots disagree, or whose lots are over-taken. */
const disagreeing = async () => (await checkLedger(connection.db)).shown;

/** The demo customers holding the most points, with their mobile and balance. */
const richest = (count: number) =>
  ctx.sql<{ id: number; mobileno: string; balance: number; lots: number }>(
    `SELECT c.id, c.mobileno, a.balance,
            (SELECT count(*)::int FROM points_lots l WHERE l.customer_id = c.id AND l.remaining > 0) AS lots
       FROM customers c JOIN points_accounts a ON a.customer_id = c.id
      ORDER BY a.balance DESC, c.id LIMIT $1`,
    [count],
  );

describe('the demo data set', () => {
  it("gives every customer a balance equal to the ledger's sum and to the open points lots", async () => {
    const [counts] = await ctx.sql<{ customers: number; holding: number; lots: number }>(
      `SELECT (SELECT count(*)::int FROM customers) AS customers,
              (SELECT count(*)::int FROM points_accounts WHERE balance > 0) AS holding,
              (SELECT count(*)::int FROM points_lots) AS lots`,
    );
    expect(counts!.customers).toBe(300);
    expect(counts!.holding).toBeGreaterThan(200);
    expect(await disagreeing()).toEqual([]);
    // Every debit took exactly its points from the lots, each take from its own customer's.
    expect(
      await ctx.sql(
        `SELECT e.mrn FROM points_entries e
          WHERE e.debit > 0 AND e.debit IS DISTINCT FROM
                (SELECT sum(t.points)::int FROM points_lot_takes t JOIN points_lots l ON l.id = t.lot_id
                  WHERE t.entry_mrn = e.mrn AND l.customer_id = e.customer_id)`,
      ),
    ).toEqual([]);
    // The running totals the dashboard reads agree with the ledger and the installments.
    await expectSummariesAgree(ctx);
  });

  it("shows the dashboard's points outstanding equal to the Points Liability report's total", async () => {
    const dashboard = await call('GET', '/api/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const liability = await call('POST', '/api/reports/points-liability', {});
    expect(liability.statusCode, liability.body).toBe(200);
    const [{ balances }] = (await ctx.sql<{ balances: string }>(
      `SELECT sum(balance) AS balances FROM points_accounts`,
    )) as [{ balances: string }];
    const outstanding = dashboard.json<{ data: { points: { outstanding: number } } }>().data.points
      .outstanding;
    expect(outstanding).toBeGreaterThan(0);
    expect(outstanding).toBe(Number(balances));
    expect(liability.json<{ totals: { points: number } }>().totals.points).toBe(outstanding);
  });

  it('lets a counter redeem a demo customer’s points, down to the last point of many lots', async () => {
    const [first, second] = await richest(2);
    expect(second!.lots).toBeGreaterThan(1);
    const some = await redeem({ invoiceNo: 'DEMO-1', mobile: first!.mobileno, points: 100 });
    expect(some.statusCode, some.body).toBe(200);
    expect(some.json().data).toMatchObject({ points: 100, balance: first!.balance - 100 });
    const all = await redeem({
      invoiceNo: 'DEMO-2',
      mobile: second!.mobileno,
      points: second!.balance,
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toMatchObject({ balance: 0 });
    expect(await disagreeing()).toEqual([]);
  });

  it('answers a redemption whose lots hold less than the balance with a 409, never a 500, and changes nothing', async () => {
    // Lots emptied behind the balance's back: the fault older demo data had.
    const [customer] = await richest(1);
    await ctx.sql(`UPDATE points_lots SET remaining = 0 WHERE customer_id = $1`, [customer!.id]);
    const before = await ctx.sql(
      `SELECT (SELECT balance FROM points_accounts WHERE customer_id = $1) AS balance,
              (SELECT count(*)::int FROM points_entries WHERE customer_id = $1) AS entries,
              (SELECT count(*)::int FROM pos_redemptions) AS redemptions`,
      [customer!.id],
    );
    const response = await redeem({ invoiceNo: 'DEMO-3', mobile: customer!.mobileno, points: 100 });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.pointsRecordsDisagree });
    expect(
      await ctx.sql(
        `SELECT (SELECT balance FROM points_accounts WHERE customer_id = $1) AS balance,
                (SELECT count(*)::int FROM points_entries WHERE customer_id = $1) AS entries,
                (SELECT count(*)::int FROM pos_redemptions) AS redemptions`,
        [customer!.id],
      ),
    ).toEqual(before);
  });
});
