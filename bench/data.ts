/** The benchmark data set, built once with COPY and reused, and the inputs sampled from it. */
import type pg from 'pg';
import { todayIn } from '@kanak/contract';
import { loadDemoData, loadDemoSchemes } from '../apps/server/src/cli/load-demo.js';

const STORE_TIMEZONE = 'Asia/Kolkata';

/** Customers with about ten ledger rows each, then one scheme per customer. */
export async function ensureDataSet(pool: pg.Pool, customers: number) {
  const today = todayIn(STORE_TIMEZONE);
  const have = await count(pool, 'customers');
  if (have < customers) {
    await timed(`${customers - have} customers with their ledgers`, () =>
      loadDemoData(pool, {
        customers: customers - have,
        entriesPerCustomer: 10,
        today,
        onProgress: console.log,
      }),
    );
  }
  const schemes = await count(pool, 'schemes');
  if (schemes < customers) {
    await timed(`${customers - schemes} schemes with their installments`, () =>
      loadDemoSchemes(pool, {
        firstCustomer: schemes,
        count: customers - schemes,
        installments: 11,
        today,
        onProgress: console.log,
      }),
    );
  }
  // Fresh statistics and a set visibility map, as autovacuum would leave a settled database.
  if (have < customers || schemes < customers) await pool.query('VACUUM ANALYZE');
}

/**
 * A statement is measured as "opening + ~100 rows"; the data set has about ten entries
 * per customer over several years. The customers whose statements are measured get 100
 * purchases in the statement's year, once (kept in the data set; their balances follow).
 */
export async function ensureLongStatements(pool: pg.Pool, samples: Samples) {
  await pool.query(
    `WITH short AS (
       SELECT c.id FROM customers c
       WHERE c.mobileno = ANY($1)
         AND (SELECT count(*) FROM points_entries e
              WHERE e.customer_id = c.id AND e.invdate BETWEEN $2 AND $3) < 50
     ), purchases AS (
       INSERT INTO points_entries (customer_id, invdate, narration, sale_amount_paise, credit, ts)
       SELECT short.id, $2::date + 3 * g, 'Purchase', 1000000 * g, 10, 'S'
       FROM short CROSS JOIN generate_series(1, 100) AS g
     )
     UPDATE customers SET points_balance = points_balance + 1000 WHERE id IN (SELECT id FROM short)`,
    [samples.statementMobiles, samples.from, samples.to],
  );
}

/**
 * Takes back what earlier runs' points updates wrote (the bench user's entries, their balance
 * changes, audit rows and idempotency keys), so that every run measures the same data set.
 */
export async function undoBenchWrites(pool: pg.Pool, benchUserId: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rowCount } = await client.query(
      `WITH removed AS (
         DELETE FROM points_entries WHERE created_by = $1 RETURNING customer_id, credit - debit AS delta
       ), per_customer AS (
         SELECT customer_id, sum(delta) AS delta FROM removed GROUP BY customer_id
       )
       UPDATE customers c SET points_balance = c.points_balance - p.delta
       FROM per_customer p WHERE c.id = p.customer_id`,
      [benchUserId],
    );
    await client.query(`DELETE FROM audit_log WHERE user_id = $1`, [benchUserId]);
    await client.query(`DELETE FROM idempotency_keys WHERE user_id = $1`, [benchUserId]);
    await client.query('COMMIT');
    if (rowCount) await client.query('VACUUM ANALYZE points_entries, customers, audit_log');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

export async function countRows(pool: pg.Pool) {
  const { rows } = await pool.query(
    `SELECT (SELECT count(*) FROM customers)::int AS customers,
            (SELECT count(*) FROM points_entries)::int AS "ledgerRows",
            (SELECT count(*) FROM schemes)::int AS schemes,
            (SELECT count(*) FROM scheme_installments)::int AS installments`,
  );
  return rows[0] as Record<string, number>;
}

export interface Samples {
  /** What staff type in a search box: mobile prefixes and parts of names. */
  searches: string[];
  /** Customers with a ledger, for statements. */
  statementMobiles: string[];
  /** Others, for points updates: their new entries never lengthen a measured statement. */
  updateMobiles: string[];
  /** A year's statement, ending today. */
  from: string;
  to: string;
  /** The last twelve calendar months, as summary filters. */
  months: { datefrom: string; dateto: string }[];
}

export async function sampleInputs(pool: pg.Pool): Promise<Samples> {
  const { rows } = await pool.query<{ mobileno: string; custname: string }>(
    `SELECT mobileno, custname FROM customers TABLESAMPLE SYSTEM (1) REPEATABLE (1928) LIMIT 200`,
  );
  const searches = rows.flatMap((r, i) => [
    r.mobileno.slice(0, 5 + (i % 4)),
    nameWord(r.custname, i % 2)
      .slice(0, 3 + (i % 4))
      .toLowerCase(),
  ]);
  const today = todayIn(STORE_TIMEZONE);
  return {
    searches,
    statementMobiles: rows.slice(0, rows.length / 2).map((r) => r.mobileno),
    updateMobiles: rows.slice(rows.length / 2).map((r) => r.mobileno),
    from: `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`,
    to: today,
    months: lastMonths(today, 12),
  };
}

const nameWord = (name: string, index: number) => name.split(' ')[index] ?? name;

function lastMonths(today: string, count: number) {
  return Array.from({ length: count }, (_, k) => {
    const first = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    first.setUTCMonth(first.getUTCMonth() - k - 1);
    const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
    return { datefrom: first.toISOString().slice(0, 10), dateto: last.toISOString().slice(0, 10) };
  });
}

async function count(pool: pg.Pool, table: 'customers' | 'schemes') {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

async function timed(what: string, work: () => Promise<unknown>) {
  console.log(`loading ${what} (COPY)...`);
  const started = Date.now();
  await work();
  console.log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
