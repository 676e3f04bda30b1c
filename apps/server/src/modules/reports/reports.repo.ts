import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { addDays, IMPORTED_MODE, LIMITS, type CollectionsBy } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import type { QueryText } from '../../lib/csv-stream.js';
import { overdueSql, planGracesSql, type PlanGrace } from '../schemes/index.js';

/**
 * The owner's view reads across the tables of several modules (installments with their
 * schemes, customers, staff and branches; redemptions with their counters or staff): one read-only
 * statement per figure, on one snapshot, each reaching its rows through an index. Nothing
 * here writes; every table keeps its one owner (see docs/decisions.md).
 *
 * A report's rows are a query (`…Rows`), so the same statement answers a page (with LIMIT)
 * and the whole CSV (streamed from a cursor); its totals are another, over all its rows.
 */

/** One branch (its id and code), or the whole chain. */
export interface Scope {
  branchId?: number;
  branchCode?: string;
}

const inBranch = (column: SQL, scope: Scope) =>
  scope.branchId === undefined ? sql`TRUE` : sql`${column} = ${scope.branchId}`;

const dialect = new PgDialect();
/** The statement as text and values, for a cursor (and for the benchmark's raw runs). */
export const queryText = (query: SQL): QueryText => dialect.sqlToQuery(query);

/** The rows of `query` from `offset`, at most `limit`. */
export async function pageRows<Row extends Record<string, unknown>>(
  tx: Tx,
  query: SQL,
  limit: number,
  offset: number,
) {
  const result = await tx.execute<Row>(sql`${query} LIMIT ${limit} OFFSET ${offset}`);
  return result.rows as Row[];
}

export interface MonthCollections extends Record<string, unknown> {
  month: string;
  today: boolean;
  mode: string;
  amount: number;
  installments: number;
}
export interface MonthPoints extends Record<string, unknown> {
  month: string;
  today: boolean;
  issued: number;
  redeemed: number;
  expired: number;
}
export interface SchemeFigures extends Record<string, unknown> {
  active: number;
  commitment: number;
  maturing: number;
}

export interface CollectionsRange {
  from: string;
  to: string;
  timeZone: string;
  /** Installments by the day they are dated (unset too) or by the day they were entered. */
  by?: CollectionsBy;
}

/** The cash book's installments: dated, or entered, on the days [from, to] (store time). */
const installmentsOf = (range: CollectionsRange, scope: Scope) => {
  const days =
    range.by === 'entered'
      ? sql`i.created_at >= (${range.from}::date)::timestamp AT TIME ZONE ${range.timeZone}
            AND i.created_at < (${range.to}::date + 1)::timestamp AT TIME ZONE ${range.timeZone}`
      : sql`i.paid_on BETWEEN ${range.from}::date AND ${range.to}::date`;
  return sql`${days} AND i.mode <> ${IMPORTED_MODE} AND ${inBranch(sql`i.branch_id`, scope)}`;
};
/** The day an installment was entered, in store time. */
const enteredDay = (range: CollectionsRange) =>
  sql`(i.created_at AT TIME ZONE ${range.timeZone})::date`;

/** Redemptions and their cancels of the days [from, to] in store time. */
const redemptionsOf = (
  range: CollectionsRange,
  scope: Scope,
  at: 'created_at' | 'cancelled_at',
) => {
  const column = sql.raw(`r.${at}`);
  return sql`${column} >= (${range.from}::date)::timestamp AT TIME ZONE ${range.timeZone}
    AND ${column} < (${range.to}::date + 1)::timestamp AT TIME ZONE ${range.timeZone}
    AND r.entry_mrn IS NOT NULL
    AND ${scope.branchCode === undefined ? sql`TRUE` : sql`r.branch_code = ${scope.branchCode}`}`;
};

/**
 * Points staff redeemed on the Redeem Points screen on the days [from, to] in store time: the
 * ledger's redemption rows with a staff member behind them, each joined to its
 * counter_redemptions row (bill and worth). The billing system's redemptions have neither and
 * are read from pos_redemptions above: never counted twice.
 */
const staffRedemptionsOf = (range: CollectionsRange, scope: Scope) => sql`e.ts = 'R'
    AND e.created_by IS NOT NULL
    AND e.created_at >= (${range.from}::date)::timestamp AT TIME ZONE ${range.timeZone}
    AND e.created_at < (${range.to}::date + 1)::timestamp AT TIME ZONE ${range.timeZone}
    AND ${inBranch(sql`e.branch_id`, scope)}`;

export interface CollectionDbRow extends Record<string, unknown> {
  date: string;
  time: string;
  branch: string;
  staff: string;
  kind: 'installment' | 'redemption' | 'redemptionCancelled';
  receipt: string;
  schemeid: number | null;
  custname: string;
  mobileno: string;
  mode: string;
  amount_paise: number;
  points: number | null;
  entered_on: string;
  /** The ledger entry of a staff redemption; null for the rest. */
  entry: number | null;
}

export interface OverdueDbRow extends Record<string, unknown> {
  schemeid: number;
  mobileno: string;
  custname: string;
  months_due: number;
  amount_due: number;
  days_overdue: number;
  last_paid: string | null;
}

export interface MaturingDbRow extends Record<string, unknown> {
  schemeid: number;
  custname: string;
  mobileno: string;
  branch: string;
  startdt: string;
  matdt: string;
  paid: number;
  installments: number;
  amount_paid: number;
  /** A weight scheme's gold so far, in milligrams; null for a value scheme. */
  mg: number | null;
}

export interface LiabilityDbRow extends Record<string, unknown> {
  custid: number;
  custname: string;
  mobileno: string;
  points: number;
  expiring: number;
}

export interface UnrecoveredDbRow extends Record<string, unknown> {
  returnDate: string;
  branch: string;
  returnNo: string;
  invoiceNo: string | null;
  mobile: string | null;
  unrecovered: number;
}

/**
 * Each statement, built and not run: the repo below runs them, the benchmark runs the same
 * text raw beside the API.
 */
export const reportQueries = {
  /** Installments by month and mode from `from` to `today` (today's apart), from the daily totals. */
  collectionsByMonth: (scope: Scope, from: string, today: string) => sql`
    SELECT to_char(day, 'YYYY-MM') AS month, day = ${today}::date AS today, mode,
           sum(amount)::bigint AS amount, sum(installments)::integer AS installments
      FROM collections_by_day
     WHERE day BETWEEN ${from}::date AND ${today}::date AND ${inBranch(sql`branch_id`, scope)}
     GROUP BY 1, 2, 3`,

  /** Points issued, redeemed and expired by month from `from` to `today` (today's apart). */
  pointsByMonth: (scope: Scope, from: string, today: string) => sql`
    SELECT to_char(day, 'YYYY-MM') AS month, day = ${today}::date AS today,
           sum(issued)::bigint AS issued, sum(redeemed)::bigint AS redeemed,
           sum(expired)::bigint AS expired
      FROM points_by_day
     WHERE day BETWEEN ${from}::date AND ${today}::date AND ${inBranch(sql`branch_id`, scope)}
     GROUP BY 1, 2`,

  /**
   * Points customers hold: what is left of the lots (the chain's equal the balances), for one
   * branch of the lots it gave, from the per-branch totals the lots keep.
   */
  pointsOutstanding: (scope: Scope) => sql`
    SELECT coalesce(sum(points), 0)::bigint AS points FROM points_held
     WHERE ${inBranch(sql`branch_id`, scope)}`,

  /**
   * Active schemes and their monthly commitment (those with installments still to pay), from
   * the per-branch totals the schemes keep, and those maturing soon. (What is overdue is the
   * overdue report's totals.)
   */
  schemeFigures: (scope: Scope, today: string) => sql`
    SELECT coalesce(sum(a.schemes), 0)::integer AS active,
           coalesce(sum(a.commitment), 0)::bigint AS commitment,
           (SELECT count(*)::integer FROM schemes s
             WHERE s.status = 'a' AND ${inBranch(sql`s.branch_id`, scope)}
               AND s.matdt BETWEEN ${today}::date
                   AND ${addDays(today, LIMITS.maturingWithinDays)}::date) AS maturing
      FROM schemes_active a
     WHERE ${inBranch(sql`a.branch_id`, scope)}`,

  /** The gold the shop owes: milligrams held in running weight schemes, by plan. */
  goldHeld: (scope: Scope) => sql`
    SELECT p.code AS plan, p.name, sum(i.mg)::bigint AS mg
      FROM schemes s
           JOIN scheme_plans p ON p.id = s.plan_id
           JOIN scheme_installments i ON i.scheme_id = s.id
     WHERE s.plan_id IS NOT NULL AND s.status = 'a' AND p.kind = 'weight'
       AND ${inBranch(sql`s.branch_id`, scope)}
     GROUP BY p.code, p.name
     ORDER BY p.code`,

  /**
   * The cash book: installments dated on the days [from, to] (or entered on them), and
   * redemptions made and cancelled at the counters on those days (store time), whether the
   * billing system posted them or staff made them on the Redeem Points screen, by day and in the
   * order they were recorded (entered: in the order recorded). For a page, `first` is how many
   * rows it reaches: each of the four parts then reads only that many in order from its own
   * index, rather than all of a busy month's to sort them.
   */
  collectionsRows(range: CollectionsRange, scope: Scope, first?: number) {
    const time = (column: SQL) => sql`to_char(${column} AT TIME ZONE ${range.timeZone}, 'HH24:MI')`;
    const day = (column: SQL) => sql`(${column} AT TIME ZONE ${range.timeZone})::date`;
    const firstOf = (order: SQL) =>
      first === undefined ? sql`` : sql`ORDER BY ${order} LIMIT ${first}`;
    const entered = range.by === 'entered';
    return sql`
      SELECT date::text AS date, time, branch, staff, kind, receipt, schemeid, custname, mobileno,
             mode, amount_paise, points, entered_on::text AS entered_on, entry
        FROM (
          (SELECT i.paid_on AS date, i.created_at AS at, i.id, ${time(sql`i.created_at`)} AS time,
                  b.code AS branch, coalesce(nullif(u.name, ''), u.username, '') AS staff,
                  'installment' AS kind, i.receipt, i.scheme_id AS schemeid, c.custname,
                  coalesce(c.mobileno, '') AS mobileno, i.mode,
                  i.amount * 100::bigint AS amount_paise, NULL::integer AS points,
                  ${enteredDay(range)} AS entered_on, NULL::bigint AS entry
             FROM scheme_installments i
                  JOIN schemes s ON s.id = i.scheme_id
                  JOIN customers c ON c.id = s.customer_id
                  JOIN branches b ON b.id = i.branch_id
                  LEFT JOIN users u ON u.id = i.created_by
            WHERE ${installmentsOf(range, scope)}
            ${firstOf(entered ? sql`i.created_at, i.id` : sql`i.paid_on, i.created_at, i.id`)})
          UNION ALL
          (SELECT ${day(sql`r.created_at`)}, r.created_at, r.id, ${time(sql`r.created_at`)},
                  r.branch_code, coalesce(k.label, ''), 'redemption', r.invoice_no, NULL,
                  c.custname, coalesce(c.mobileno, ''), 'points', r.value_paise, r.points,
                  ${day(sql`r.created_at`)}, NULL
             FROM pos_redemptions r
                  JOIN customers c ON c.id = r.customer_id
                  LEFT JOIN api_keys k ON k.id = r.api_key_id
            WHERE ${redemptionsOf(range, scope, 'created_at')}
            ${firstOf(sql`r.created_at, r.id`)})
          UNION ALL
          (SELECT ${day(sql`r.cancelled_at`)}, r.cancelled_at, r.id, ${time(sql`r.cancelled_at`)},
                  r.branch_code, coalesce(k.label, ''), 'redemptionCancelled', r.invoice_no, NULL,
                  c.custname, coalesce(c.mobileno, ''), 'points', -r.value_paise, -r.points,
                  ${day(sql`r.cancelled_at`)}, NULL
             FROM pos_redemptions r
                  JOIN customers c ON c.id = r.customer_id
                  LEFT JOIN api_keys k ON k.id = r.api_key_id
            WHERE ${redemptionsOf(range, scope, 'cancelled_at')}
            ${firstOf(sql`r.cancelled_at, r.id`)})
          UNION ALL
          (SELECT ${day(sql`e.created_at`)}, e.created_at, e.mrn, ${time(sql`e.created_at`)},
                  b.code, coalesce(nullif(u.name, ''), u.username, ''), 'redemption',
                  s.invoice_no, NULL, c.custname, coalesce(c.mobileno, ''), 'points',
                  s.value_paise, e.debit, ${day(sql`e.created_at`)}, e.mrn
             FROM points_entries e
                  JOIN counter_redemptions s ON s.entry_mrn = e.mrn
                  JOIN customers c ON c.id = e.customer_id
                  JOIN branches b ON b.id = e.branch_id
                  LEFT JOIN users u ON u.id = e.created_by
            WHERE ${staffRedemptionsOf(range, scope)}
            ${firstOf(sql`e.created_at, e.mrn`)})
        ) book
       ORDER BY ${entered ? sql`` : sql`book.date,`} book.at, book.id, book.kind`;
  },

  /**
   * The cash book's installments by mode: by the day dated from the daily totals, by the day
   * entered from the installments themselves (the daily totals are kept by date).
   */
  collectionsByMode: (range: CollectionsRange, scope: Scope) =>
    range.by === 'entered'
      ? sql`
    SELECT i.mode, sum(i.amount)::bigint AS amount, count(*)::integer AS installments
      FROM scheme_installments i
     WHERE ${installmentsOf(range, scope)}
     GROUP BY i.mode`
      : sql`
    SELECT mode, sum(amount)::bigint AS amount, sum(installments)::integer AS installments
      FROM collections_by_day
     WHERE day BETWEEN ${range.from}::date AND ${range.to}::date AND ${inBranch(sql`branch_id`, scope)}
     GROUP BY mode`,

  /** Of the cash book's installments, those entered on a later day than they are dated. */
  backdatedInstallments: (range: CollectionsRange, scope: Scope) => sql`
    SELECT count(*)::integer AS backdated FROM scheme_installments i
     WHERE ${installmentsOf(range, scope)} AND i.paid_on < ${enteredDay(range)}`,

  /**
   * The cash book's redemptions made (the billing system's and staff's) and cancelled, and the
   * points and rupees they net to.
   */
  redemptionTotals: (range: CollectionsRange, scope: Scope) => sql`
    SELECT count(*) FILTER (WHERE kind = 1)::integer AS made,
           count(*) FILTER (WHERE kind = -1)::integer AS cancelled,
           coalesce(sum(kind * points), 0)::bigint AS points,
           coalesce(sum(kind * value_paise), 0)::bigint AS value_paise
      FROM (SELECT 1 AS kind, r.points, r.value_paise FROM pos_redemptions r
             WHERE ${redemptionsOf(range, scope, 'created_at')}
            UNION ALL
            SELECT -1, r.points, r.value_paise FROM pos_redemptions r
             WHERE ${redemptionsOf(range, scope, 'cancelled_at')}
            UNION ALL
            SELECT 1, e.debit, s.value_paise
              FROM points_entries e JOIN counter_redemptions s ON s.entry_mrn = e.mrn
             WHERE ${staffRedemptionsOf(range, scope)}) made`,

  /** Every plan's grace, which the overdue statements below are built with. */
  planGraces: () => planGracesSql,

  /**
   * Overdue schemes on `asOf` (active, by the overdue rule with their plan's grace, of
   * `plans`), the longest overdue first.
   */
  overdueRows(asOf: string, scope: Scope, plans: readonly PlanGrace[]): SQL {
    const overdue = overdueSql(asOf, plans);
    return sql`
      SELECT s.id AS schemeid, coalesce(c.mobileno, '') AS mobileno, c.custname,
             o.due AS months_due, o.due * s.amount AS amount_due,
             ${asOf}::date - s.next_due AS days_overdue,
             (SELECT max(i.paid_on)::text FROM scheme_installments i WHERE i.scheme_id = s.id) AS last_paid
        FROM schemes s
             CROSS JOIN LATERAL (SELECT ${overdue.installments} AS due) o
             JOIN customers c ON c.id = s.customer_id
       WHERE s.status = 'a' AND ${overdue.isOverdue} AND ${inBranch(sql`s.branch_id`, scope)}
       ORDER BY s.next_due, s.id`;
  },

  overdueTotals(asOf: string, scope: Scope, plans: readonly PlanGrace[]): SQL {
    const overdue = overdueSql(asOf, plans);
    return sql`
      SELECT count(*)::integer AS schemes, coalesce(sum(o.due), 0)::integer AS installments,
             coalesce(sum(o.due * s.amount), 0)::bigint AS amount
        FROM schemes s
             CROSS JOIN LATERAL (SELECT ${overdue.installments} AS due) o
       WHERE s.status = 'a' AND ${overdue.isOverdue} AND ${inBranch(sql`s.branch_id`, scope)}`;
  },

  /** Active schemes maturing on the days [from, to], soonest first. */
  maturingRows(from: string, to: string, scope: Scope): SQL {
    return sql`
      SELECT s.id AS schemeid, c.custname, coalesce(c.mobileno, '') AS mobileno, b.code AS branch,
             s.startdt::text AS startdt, s.matdt::text AS matdt, s.paid, s.installments,
             s.paid * s.amount AS amount_paid,
             (SELECT sum(i.mg)::integer FROM scheme_installments i WHERE i.scheme_id = s.id) AS mg
        FROM schemes s
             JOIN customers c ON c.id = s.customer_id
             JOIN branches b ON b.id = s.branch_id
       WHERE s.status = 'a' AND s.matdt BETWEEN ${from}::date AND ${to}::date
         AND ${inBranch(sql`s.branch_id`, scope)}
       ORDER BY s.matdt, s.id`;
  },

  maturingTotals: (from: string, to: string, scope: Scope) => sql`
    SELECT count(*)::integer AS schemes, coalesce(sum(s.paid * s.amount), 0)::bigint AS amount_paid
      FROM schemes s
     WHERE s.status = 'a' AND s.matdt BETWEEN ${from}::date AND ${to}::date
       AND ${inBranch(sql`s.branch_id`, scope)}`,

  /**
   * Customers holding points, the most first, with those expiring by `lastDay`. The chain's:
   * each customer's balance. A branch's: what is left of the lots it gave each customer.
   */
  liabilityRows(today: string, lastDay: string, scope: Scope): SQL {
    const held =
      scope.branchId === undefined
        ? sql`SELECT customer_id, balance AS points FROM points_accounts WHERE balance > 0`
        : sql`SELECT customer_id, sum(remaining)::bigint AS points FROM points_lots
               WHERE branch_id = ${scope.branchId} AND remaining > 0 GROUP BY customer_id`;
    return sql`
      SELECT c.id AS custid, c.custname, coalesce(c.mobileno, '') AS mobileno, h.points::bigint AS points,
             (SELECT coalesce(sum(l.remaining), 0)::bigint FROM points_lots l
               WHERE l.customer_id = h.customer_id AND l.remaining > 0
                 AND l.expires_on BETWEEN ${today}::date AND ${lastDay}::date
                 AND ${inBranch(sql`l.branch_id`, scope)}) AS expiring
        FROM (${held}) h JOIN customers c ON c.id = h.customer_id
       ORDER BY h.points DESC, c.id`;
  },

  /**
   * How many customers hold points in the scope. (How many points they hold is
   * pointsOutstanding, the dashboard's own figure, so the two screens never disagree.)
   */
  liabilityCustomers: (scope: Scope) =>
    scope.branchId === undefined
      ? sql`SELECT count(*)::integer AS customers FROM points_accounts WHERE balance > 0`
      : sql`SELECT count(DISTINCT customer_id)::integer AS customers
              FROM points_lots WHERE branch_id = ${scope.branchId} AND remaining > 0`,

  /** Of those, the points of the lots expiring on the days [today, lastDay]. */
  liabilityExpiring: (today: string, lastDay: string, scope: Scope) => sql`
    SELECT coalesce(sum(l.remaining), 0)::bigint AS points FROM points_lots l
     WHERE l.remaining > 0 AND l.expires_on IS NOT NULL
       AND l.expires_on BETWEEN ${today}::date AND ${lastDay}::date
       AND ${inBranch(sql`l.branch_id`, scope)}`,

  /**
   * The installments one staff member recorded with today's date, in the order taken: the
   * day's index, then their own rows of it.
   */
  myInstallments: (today: string, staffId: number, timeZone: string) => sql`
    SELECT to_char(i.created_at AT TIME ZONE ${timeZone}, 'HH24:MI') AS time, i.receipt,
           i.scheme_id AS schemeid, c.custname, coalesce(c.mobileno, '') AS mobileno, i.mode,
           i.amount
      FROM scheme_installments i
           JOIN schemes s ON s.id = i.scheme_id
           JOIN customers c ON c.id = s.customer_id
     WHERE i.paid_on = ${today}::date AND i.created_by = ${staffId} AND i.mode <> ${IMPORTED_MODE}
     ORDER BY i.created_at, i.id`,

  /** Returns whose points could not all be taken back, newest first. */
  unrecoveredRows(range: { from?: string; to?: string }, scope: Scope): SQL {
    return sql`
      SELECT r.return_date::text AS "returnDate", r.branch_code AS branch, r.return_no AS "returnNo",
             s.invoice_no AS "invoiceNo", c.mobileno AS mobile, r.unrecovered
        FROM pos_returns r
             LEFT JOIN pos_sales s ON s.id = r.sale_id
             LEFT JOIN customers c ON c.id = s.customer_id
       WHERE ${unrecoveredWhere(range, scope)}
       ORDER BY r.return_date DESC, r.id DESC`;
  },

  unrecoveredTotals: (range: { from?: string; to?: string }, scope: Scope) => sql`
    SELECT count(*)::integer AS returns, coalesce(sum(r.unrecovered), 0)::bigint AS unrecovered
      FROM pos_returns r WHERE ${unrecoveredWhere(range, scope)}`,
};

type Queries = typeof reportQueries;
/** Runs one of the statements above for its rows. */
const rowsOf =
  <Row extends Record<string, unknown>, Name extends keyof Queries>(name: Name) =>
  async (tx: Tx, ...args: Parameters<Queries[Name]>) => {
    const build = reportQueries[name] as (...given: Parameters<Queries[Name]>) => SQL;
    return (await tx.execute<Row>(build(...args))).rows as Row[];
  };
/** Runs one of the statements above for its one row. */
const rowOf =
  <Row extends Record<string, unknown>, Name extends keyof Queries>(name: Name) =>
  async (tx: Tx, ...args: Parameters<Queries[Name]>) =>
    (await rowsOf<Row, Name>(name)(tx, ...args))[0]!;

/** The statements above, run in a transaction. */
export const reportsRepo = {
  collectionsByMonth: rowsOf<MonthCollections, 'collectionsByMonth'>('collectionsByMonth'),
  pointsByMonth: rowsOf<MonthPoints, 'pointsByMonth'>('pointsByMonth'),
  pointsOutstanding: rowOf<{ points: number }, 'pointsOutstanding'>('pointsOutstanding'),
  schemeFigures: rowOf<SchemeFigures, 'schemeFigures'>('schemeFigures'),
  goldHeld: rowsOf<{ plan: string; name: string; mg: number }, 'goldHeld'>('goldHeld'),
  collectionsByMode: rowsOf<
    { mode: string; amount: number; installments: number },
    'collectionsByMode'
  >('collectionsByMode'),
  backdatedInstallments: rowOf<{ backdated: number }, 'backdatedInstallments'>(
    'backdatedInstallments',
  ),
  redemptionTotals: rowOf<
    { made: number; cancelled: number; points: number; value_paise: number },
    'redemptionTotals'
  >('redemptionTotals'),
  planGraces: rowsOf<PlanGrace, 'planGraces'>('planGraces'),
  overdueTotals: rowOf<{ schemes: number; installments: number; amount: number }, 'overdueTotals'>(
    'overdueTotals',
  ),
  maturingTotals: rowOf<{ schemes: number; amount_paid: number }, 'maturingTotals'>(
    'maturingTotals',
  ),
  liabilityCustomers: rowOf<{ customers: number }, 'liabilityCustomers'>('liabilityCustomers'),
  liabilityExpiring: rowOf<{ points: number }, 'liabilityExpiring'>('liabilityExpiring'),
  myInstallments: rowsOf<
    {
      time: string;
      receipt: string;
      schemeid: number;
      custname: string;
      mobileno: string;
      mode: string;
      amount: number;
    },
    'myInstallments'
  >('myInstallments'),
  unrecoveredTotals: rowOf<{ returns: number; unrecovered: number }, 'unrecoveredTotals'>(
    'unrecoveredTotals',
  ),
};

function unrecoveredWhere(range: { from?: string; to?: string }, scope: Scope) {
  const where = [sql`r.unrecovered > 0`];
  if (range.from) where.push(sql`r.return_date >= ${range.from}::date`);
  if (range.to) where.push(sql`r.return_date <= ${range.to}::date`);
  if (scope.branchCode !== undefined) where.push(sql`r.branch_code = ${scope.branchCode}`);
  return sql.join(where, sql` AND `);
}
