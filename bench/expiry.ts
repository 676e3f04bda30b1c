/**
 * The points expiry measured on its own: N due lots made by SQL (each with the ledger credit it
 * came from and its customer's balance raised by it), then the expiry job's own function timed
 * while it empties them, then everything it and the set-up wrote taken back (so the data set
 * stays the same from run to run).
 *
 * Alone: `BENCH_DATABASE_URL=postgres://… npx tsx --conditions=@kanak/source bench/expiry.ts
 * --lots 1000000` (a database with its migrations run; customers are made when it has too few:
 * one lot per customer, the worst case, every lot a different balance row). `npm run bench`
 * uses the same functions for its expiry step.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { connectDatabase, type Db } from '../apps/server/src/db/client.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { expireDueLots } from '../apps/server/src/modules/points/points.expiry.js';

/** The bench's lots are earned and expire on days no real lot has: easy to find and take back. */
const EARNED_ON = '2000-01-01';
const EXPIRES_ON = '2002-01-01';
const NARRATION = 'Bench lot';
export const EXPIRY_TODAY = '2002-01-02';

/** N due lots, one per customer (the first N customers by id), their credits and balances. */
export async function makeDueLots(pool: pg.Pool, lots: number) {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM customers`);
  if (rows[0]!.n < lots) {
    await pool.query(
      `INSERT INTO customers (mobileno, custname)
       SELECT (7000000000 + g)::text, 'Expiry Customer ' || g FROM generate_series($1::int, $2::int) g`,
      [rows[0]!.n + 1, lots],
    );
  }
  await pool.query(
    `WITH picked AS (SELECT id FROM customers ORDER BY id LIMIT $1),
     credits AS (
       INSERT INTO points_entries (customer_id, invdate, narration, credit, ts)
       SELECT id, $2::date, $4, 10, 'M' FROM picked
       RETURNING mrn, customer_id
     ), lots AS (
       INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
       SELECT customer_id, mrn, $2::date, $3::date, 10, 10 FROM credits
     )
     UPDATE points_accounts SET balance = balance + 10 WHERE customer_id IN (SELECT id FROM picked)`,
    [lots, EARNED_ON, EXPIRES_ON, NARRATION],
  );
  await pool.query('VACUUM ANALYZE points_lots, points_entries, points_accounts');
}

/** Takes back the bench lots, their credits and their E rows; balances as they were. */
export async function removeBenchLots(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `WITH gone AS (
         DELETE FROM points_entries
          WHERE invdate IN ($1::date, $2::date) AND ts IN ('M', 'E')
            AND narration IN ($3, 'Points expired, earned ' || to_char($1::date, 'DD-MM-YYYY'))
         RETURNING customer_id, credit - debit AS delta
       ), lots AS (
         DELETE FROM points_lots WHERE earned_on = $1::date AND expires_on = $2::date
       ), per_customer AS (
         SELECT customer_id, sum(delta) AS delta FROM gone GROUP BY customer_id
       )
       UPDATE points_accounts a SET balance = a.balance - p.delta
         FROM per_customer p WHERE a.customer_id = p.customer_id`,
      [EARNED_ON, EXPIRES_ON, NARRATION],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  await pool.query('VACUUM ANALYZE points_lots, points_entries, points_accounts');
}

/** The expiry of every due lot, timed; with a check that it left the books agreeing. */
export async function timeExpiry(db: Db, pool: pg.Pool) {
  const started = performance.now();
  const result = await expireDueLots({ db }, EXPIRY_TODAY);
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await pool.query<{ left: number }>(
    `SELECT count(*)::int AS left FROM points_lots WHERE remaining > 0 AND expires_on <= $1`,
    [EXPIRY_TODAY],
  );
  if (rows[0]!.left !== 0) throw new Error(`${rows[0]!.left} due lots left after the expiry`);
  return { lots: result.lots, seconds: Number(seconds.toFixed(1)) };
}

async function main() {
  const { values } = parseArgs({ options: { lots: { type: 'string', default: '1000000' } } });
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('set BENCH_DATABASE_URL');
  const lots = Number(values.lots);
  const database = connectDatabase(url, { max: 4 });
  try {
    await migrateDatabase(database.db);
    await removeBenchLots(database.pool);
    let started = performance.now();
    await makeDueLots(database.pool, lots);
    const madeS = (performance.now() - started) / 1000;
    const load = os.loadavg()[0]!.toFixed(2);
    started = performance.now();
    const timed = await timeExpiry(database.db, database.pool);
    console.log(
      JSON.stringify({
        ...timed,
        madeInS: Number(madeS.toFixed(1)),
        loadBefore: load,
        loadAfter: os.loadavg()[0]!.toFixed(2),
      }),
    );
    await removeBenchLots(database.pool);
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
