import { text } from 'node:stream/consumers';
import type { Readable } from 'node:stream';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { isConnectionLostMidway, isDatabaseUnavailable } from '../../lib/pg-errors.js';
import { createCustomersCsv } from './customers.export.js';

const CUSTOMERS = 3000;

let database: TestDatabase;
let connection: Database;
let pool: pg.Pool;
let openCsv: () => Promise<Readable>;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.sql(
    `INSERT INTO customers (mobileno, custname)
     SELECT '97' || lpad(n::text, 8, '0'), 'Export ' || n FROM generate_series(1, $1) AS n`,
    [CUSTOMERS],
  );
  connection = connectDatabase(database.url, { max: 10 });
  pool = connection.pool;
  const open = createCustomersCsv(pool);
  openCsv = () => open(pool);
});
afterAll(async () => {
  await connection.close();
  await database.drop();
});

/** Whether a promise settles within a short while. */
const settlesSoon = (promise: Promise<unknown>, ms = 300) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

const lineCount = async (csv: Readable) => (await text(csv)).split('\r\n').length - 1;

/** Connections of the pool in use (idle ones are not). */
const inUse = (of: pg.Pool) => of.totalCount - of.idleCount;

describe('customer CSV exports at once', () => {
  it('run four at a time, one connection each; a fifth waits for one to finish', async () => {
    const running = await Promise.all([openCsv(), openCsv(), openCsv(), openCsv()]);
    expect(inUse(pool)).toBe(4);
    const fifth = openCsv();
    expect(await settlesSoon(fifth)).toBe(false);

    expect(await lineCount(running[0]!)).toBe(CUSTOMERS + 1);
    expect(await settlesSoon(fifth)).toBe(true);

    const counts = await Promise.all([...running.slice(1), await fifth].map(lineCount));
    expect(counts).toEqual(Array(4).fill(CUSTOMERS + 1));
    // Each turn ends with its commit, just after its file.
    await expect.poll(() => inUse(pool)).toBe(0);
    expect(pool.waitingCount).toBe(0);
  });

  it('give the turn of an export cut off midway to the next, and leave the pool usable', async () => {
    const running = await Promise.all([openCsv(), openCsv(), openCsv(), openCsv()]);
    const fifth = openCsv();
    const cut = running[0]!;
    await new Promise((resolve) => cut.once('data', resolve)); // the browser went away mid-file
    cut.destroy();

    expect(await settlesSoon(fifth)).toBe(true);
    const counts = await Promise.all([...running.slice(1), await fifth].map(lineCount));
    expect(counts).toEqual(Array(4).fill(CUSTOMERS + 1));
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM customers`);
    expect(rows[0]!.n).toBe(CUSTOMERS);
  });

  it('fail before any byte when no connection can be had (a 503), and free their turn', async () => {
    const { pool: small, close } = connectDatabase(database.url, {
      max: 1,
      connectionTimeoutMillis: 200,
    });
    const open = createCustomersCsv(small);
    const openOnSmall = () => open(small);
    const held = await small.connect();
    try {
      const refusals = await Promise.allSettled(Array.from({ length: 5 }, () => openOnSmall()));
      for (const refusal of refusals) {
        expect(refusal.status).toBe('rejected');
        // The error handler answers these with the 503 "database unavailable" envelope, and
        // a change refused this way would release its Idempotency-Key: nothing was sent.
        const { reason } = refusal as PromiseRejectedResult;
        expect(isDatabaseUnavailable(reason)).toBe(true);
        expect(isConnectionLostMidway(reason)).toBe(false);
      }
    } finally {
      held.release();
    }
    // Five refusals gave their turns back: an export still runs.
    expect(await lineCount(await openOnSmall())).toBe(CUSTOMERS + 1);
    await close();
  });
});
