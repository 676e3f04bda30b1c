/**
 * The points expiry measured on its own: N due lots made through the points ledger's bulk path
 * (each a staff credit of 10 points, its customer's balance raised by it), then the expiry
 * job's own function timed while it empties them, then everything it and the set-up wrote
 * taken back (bench/take-back.ts, so the data set stays the same from run to run).
 *
 * Alone: `BENCH_DATABASE_URL=postgres://… npx tsx --conditions=@kanak/source bench/expiry.ts
 * --lots 1000000` (a database with its migrations run; customers are made when it has too few:
 * one lot per customer, the worst case, every lot a different balance row). `npm run bench`
 * uses the same functions for its expiry step.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { connectDatabase, type Database, type Db } from '../apps/server/src/db/client.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { expireDueLots, postInBulk } from '../apps/server/src/modules/points/index.js';
import { EARNED_ON, EXPIRES_ON, NARRATION, removeBenchLots } from './take-back.js';

export const EXPIRY_TODAY = '2002-01-02';
/** Lots posted per transaction. */
const LOTS_AT_ONCE = 50_000;

/** N due lots, one per customer (the first N customers by id), their credits and balances. */
export async function makeDueLots(database: Pick<Database, 'db' | 'pool'>, lots: number) {
  const { pool } = database;
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM customers`);
  if (rows[0]!.n < lots) {
    await pool.query(
      `INSERT INTO customers (mobileno, custname)
       SELECT (7000000000 + g)::text, 'Expiry Customer ' || g FROM generate_series($1::int, $2::int) g`,
      [rows[0]!.n + 1, lots],
    );
  }
  const { rows: picked } = await pool.query<{ id: number; branch: number }>(
    `SELECT id, (SELECT min(id) FROM branches) AS branch FROM customers ORDER BY id LIMIT $1`,
    [lots],
  );
  for (let i = 0; i < picked.length; i += LOTS_AT_ONCE) {
    const credits = picked.slice(i, i + LOTS_AT_ONCE).map(({ id, branch }) => ({
      customerId: id,
      kind: 'manual' as const,
      points: 10,
      invdate: EARNED_ON,
      narration: NARRATION,
      branchId: branch,
      expiresOn: EXPIRES_ON,
    }));
    await database.db.transaction((tx) => postInBulk(tx, credits));
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
    await makeDueLots(database, lots);
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
