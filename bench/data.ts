/**
 * The benchmark data set, built once and reused (customers and schemes with COPY, their points
 * through the points ledger's bulk path), and the inputs sampled from it.
 */
import type pg from 'pg';
import { addDays, LIMITS, todayIn } from '@kanak/contract';
import { loadDemoData, loadDemoSchemes } from '../apps/server/src/cli/load-demo.js';
import type { Database } from '../apps/server/src/db/client.js';
import { postInBulk } from '../apps/server/src/modules/points/index.js';

const STORE_TIMEZONE = 'Asia/Kolkata';

/** Customers with about ten ledger rows each, then one scheme per customer. */
export async function ensureDataSet(
  database: Pick<Database, 'db' | 'pool'>,
  customers: number,
  { auditTrail = true }: { auditTrail?: boolean } = {},
) {
  const { pool } = database;
  const today = todayIn(STORE_TIMEZONE);
  const have = await count(pool, 'customers');
  if (have < customers) {
    await timed(
      `${customers - have} customers with their ledgers`,
      () =>
        loadDemoData(database, {
          customers: customers - have,
          entriesPerCustomer: 10,
          today,
          onProgress: console.log,
        }),
      "COPY, the points through the ledger's bulk path",
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
  const auditRows = await count(pool, 'audit_log');
  const wanted = auditTrail ? customers * AUDIT_ROWS_PER_CUSTOMER : 0;
  if (auditRows < wanted) {
    await timed(
      `${wanted - auditRows} audit rows`,
      () => loadAuditRows(pool, { from: auditRows, count: wanted - auditRows, customers }),
      'INSERT … SELECT',
    );
  }
  // Fresh statistics and a set visibility map, as autovacuum would leave a settled database.
  if (have < customers || schemes < customers || auditRows < wanted)
    await pool.query('VACUUM ANALYZE');
}

/** Ten changes per customer: 10 million audit rows at full scale (100,000 quick). */
export const AUDIT_ROWS_PER_CUSTOMER = 10;
const AUDIT_STAFF = 20;
const AUDIT_BATCH = 1_000_000;

/**
 * The audit trail of a few busy years: points credits and edits, customer updates and scheme
 * installments by twenty staff accounts, spread evenly over three years, each concerning a
 * customer (its mobile number set) with small before and after values. Built in PostgreSQL
 * itself (INSERT … SELECT over generate_series, a million rows a statement): nothing crosses
 * the wire, faster than COPY from here. The accounts are not the bench user's, whose rows
 * each run takes back.
 */
async function loadAuditRows(
  pool: pg.Pool,
  { from, count: rows, customers }: { from: number; count: number; customers: number },
) {
  await pool.query(
    `INSERT INTO users (username, name, role, password_hash)
     SELECT 'audit-staff-' || g, 'Audit Staff ' || g, 'cashier', 'not-a-password-hash'
     FROM generate_series(1, $1::integer) g
     ON CONFLICT DO NOTHING`,
    [AUDIT_STAFF],
  );
  const { rows: staff } = await pool.query<{ ids: number[] }>(
    `SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE username LIKE 'audit-staff-%'`,
  );
  const { rows: ids } = await pool.query<{ first: number }>(
    `SELECT min(id) AS first FROM customers`,
  );
  for (let start = from; start < from + rows; start += AUDIT_BATCH) {
    const end = Math.min(start + AUDIT_BATCH, from + rows);
    await pool.query(
      `INSERT INTO audit_log (at, user_id, action, entity, entity_id, detail, mobile)
       SELECT now() - interval '3 years' * (1 - g::float8 / $3) ,
              ($4::integer[])[1 + g % array_length($4::integer[], 1)],
              kind.action, kind.entity, (g % 100000000)::text,
              jsonb_build_object(
                'before', CASE WHEN kind.entity = 'customer' THEN jsonb_build_object('city', 'Chennai') END,
                'after', jsonb_build_object('credit', g % 500, 'narration', 'Purchase')),
              c.mobileno
       FROM generate_series($1::bigint, $2::bigint - 1) g
       CROSS JOIN LATERAL (SELECT (ARRAY['points.credit', 'points.credit', 'points.debit',
                                         'customer.update', 'scheme.installment'])[1 + g % 5] AS action) a
       CROSS JOIN LATERAL (SELECT a.action,
                                  CASE split_part(a.action, '.', 1)
                                    WHEN 'points' THEN 'points_entry' ELSE split_part(a.action, '.', 1)
                                  END AS entity) kind
       JOIN customers c ON c.id = $5::integer + (g * 7919) % $6::integer`,
      [start, end, from + rows, staff[0]!.ids, ids[0]!.first, customers],
    );
    console.log(`  ${end.toLocaleString('en-IN')} audit rows`);
  }
}

/**
 * A statement is measured as "opening + ~100 rows"; the data set has about ten entries
 * per customer over several years. The customers whose statements are measured get 100
 * purchases of 10 points in the statement's year, once (kept in the data set), posted as the
 * ledger posts sales.
 */
export async function ensureLongStatements(
  database: Pick<Database, 'db' | 'pool'>,
  samples: Samples,
) {
  const { rows: short } = await database.pool.query<{ id: number }>(
    `SELECT c.id FROM customers c
      WHERE c.mobileno = ANY($1)
        AND (SELECT count(*) FROM points_entries e
              WHERE e.customer_id = c.id AND e.invdate BETWEEN $2 AND $3) < 50
      ORDER BY c.id`,
    [samples.statementMobiles, samples.from, samples.to],
  );
  if (short.length === 0) return;
  const { rows: branches } = await database.pool.query<{ id: number }>(
    `SELECT id FROM branches ORDER BY id LIMIT 1`,
  );
  const purchases = short.flatMap(({ id }) =>
    Array.from({ length: 100 }, (_, k) => ({
      customerId: id,
      kind: 'sale' as const,
      points: 10,
      invdate: addDays(samples.from, 3 * (k + 1)),
      narration: 'Purchase',
      branchId: branches[0]!.id,
      saleAmountPaise: 1_000_000 * (k + 1),
    })),
  );
  await database.db.transaction((tx) => postInBulk(tx, purchases));
}

export async function countRows(pool: pg.Pool) {
  const { rows } = await pool.query(
    `SELECT (SELECT count(*) FROM customers)::int AS customers,
            (SELECT count(*) FROM points_entries)::int AS "ledgerRows",
            (SELECT count(*) FROM schemes)::int AS schemes,
            (SELECT count(*) FROM scheme_installments)::int AS installments,
            (SELECT count(*) FROM audit_log)::int AS "auditRows"`,
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
  /**
   * For the unpaged summary (Print and CSV): each of those months from its first day to the
   * last day that keeps the schemes within LIMITS.summaryWholeMaxRows (at the benchmark's
   * scale, a month holds more).
   */
  wholeSummaries: { datefrom: string; dateto: string }[];
  /** The latest day with installments: the cash book measured. */
  cashBookDay: string;
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
  const { rows: latest } = await pool.query<{ day: string | null }>(
    `SELECT max(paid_on)::text AS day FROM scheme_installments`,
  );
  const months = lastMonths(today, 12);
  return {
    searches,
    statementMobiles: rows.slice(0, rows.length / 2).map((r) => r.mobileno),
    updateMobiles: rows.slice(rows.length / 2).map((r) => r.mobileno),
    from: `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`,
    to: today,
    months,
    wholeSummaries: await Promise.all(months.map((month) => withinWholeLimit(pool, month))),
    cashBookDay: latest[0]?.day ?? today,
  };
}

/** The month from its first day up to the last day whose schemes so far fit the unpaged summary. */
async function withinWholeLimit(pool: pg.Pool, month: { datefrom: string; dateto: string }) {
  const { rows } = await pool.query<{ day: string | null }>(
    `SELECT max(day)::text AS day FROM (
       SELECT startdt AS day, sum(sum(schemes)) OVER (ORDER BY startdt) AS upto
         FROM schemes_by_start
        WHERE status IN ('n', 'a', 'm') AND startdt BETWEEN $1 AND $2
        GROUP BY startdt) d
      WHERE upto <= $3`,
    [month.datefrom, month.dateto, LIMITS.summaryWholeMaxRows],
  );
  return { datefrom: month.datefrom, dateto: rows[0]?.day ?? month.datefrom };
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

async function count(pool: pg.Pool, table: 'customers' | 'schemes' | 'audit_log') {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

async function timed(what: string, work: () => Promise<unknown>, how = 'COPY') {
  console.log(`loading ${what} (${how})...`);
  const started = Date.now();
  await work();
  console.log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
