/** The benchmark data set of DESIGN §7, built once with COPY and reused, and the inputs sampled from it. */
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
  /** Customers with a ledger, for statements and points updates. */
  mobiles: string[];
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
    mobiles: rows.map((r) => r.mobileno),
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
