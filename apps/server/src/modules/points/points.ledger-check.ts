import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** A customer whose points records disagree: the three figures, and the lots taken wrongly. */
export interface LedgerDisagreement {
  custid: number;
  balance: number;
  ledger: number;
  lots: number;
  /** Lots holding less than nothing or more than they were given, and debits taking more than they are. */
  overTaken: number;
}

/**
 * Checks the points books of every customer at once: the balance, the ledger's sum and the
 * open lots' remaining points agree, no lot holds less than nothing or more than it was
 * given, and no debit's takes from the lots add up to more than the debit. One snapshot and
 * a few aggregates over whole tables (no query per customer), so it runs beside the counters
 * and in seconds at a million customers.
 */
export async function checkLedger(db: Db, { show = 100 } = {}) {
  return db.transaction(
    async (tx) => {
      const differing = await tx.execute<{
        custid: number;
        balance: string;
        ledger: string;
        lots: string;
        over_taken: number;
      }>(sql`
        WITH ledger AS (
          SELECT customer_id, sum(credit - debit) AS points FROM points_entries GROUP BY customer_id
        ), lots AS (
          SELECT customer_id, sum(remaining) AS points,
                 count(*) FILTER (WHERE remaining < 0 OR remaining > points) AS over_taken
            FROM points_lots GROUP BY customer_id
        ), takes AS (
          SELECT e.customer_id, count(*) AS over_taken
            FROM (SELECT entry_mrn, sum(points) AS taken FROM points_lot_takes GROUP BY entry_mrn) t
            JOIN points_entries e ON e.mrn = t.entry_mrn
           WHERE t.taken > e.debit
           GROUP BY e.customer_id
        ), checked AS (
          SELECT a.customer_id AS custid, a.balance,
                 coalesce(l.points, 0) AS ledger, coalesce(o.points, 0) AS lots,
                 (coalesce(o.over_taken, 0) + coalesce(t.over_taken, 0))::int AS over_taken
            FROM points_accounts a
            LEFT JOIN ledger l ON l.customer_id = a.customer_id
            LEFT JOIN lots o ON o.customer_id = a.customer_id
            LEFT JOIN takes t ON t.customer_id = a.customer_id
        )
        SELECT custid, balance::text, ledger::text, lots::text, over_taken, count(*) OVER ()::int AS total
          FROM checked
         WHERE balance <> ledger OR balance <> lots OR over_taken > 0
         ORDER BY custid
         LIMIT ${show}`);
      const total = await tx.execute<{ customers: number; points: string }>(sql`
        SELECT count(*)::int AS customers, coalesce(sum(balance), 0)::text AS points
          FROM points_accounts`);
      const rows = differing.rows as unknown as ((typeof differing.rows)[number] & {
        total: number;
      })[];
      return {
        customers: total.rows[0]!.customers,
        points: Number(total.rows[0]!.points),
        differing: rows[0]?.total ?? 0,
        shown: rows.map((row): LedgerDisagreement => ({
          custid: row.custid,
          balance: Number(row.balance),
          ledger: Number(row.ledger),
          lots: Number(row.lots),
          overTaken: row.over_taken,
        })),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
