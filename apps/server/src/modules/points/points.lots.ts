import { addMonths } from '@kanak/contract';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { pointsLots } from '../../db/schema.js';

/** When points earned on `earnedOn` expire; null when the rules say never (0 months). */
export const expiryOf = (earnedOn: string, expiryMonths: number) =>
  expiryMonths === 0 ? null : addMonths(earnedOn, expiryMonths);

/** Reads of the points lots (the ledger, points.ledger.ts, is the only code that writes them). */
export const lotsRepo = {
  /** Points of the customer's lots expiring on or before `lastDay` (from `today` on). */
  async expiringBy(tx: Tx, customerId: number, today: string, lastDay: string) {
    const [row] = await tx
      .select({ points: sql<string>`coalesce(sum(${pointsLots.remaining}), 0)` })
      .from(pointsLots)
      .where(
        and(
          eq(pointsLots.customerId, customerId),
          gt(pointsLots.remaining, 0),
          sql`${pointsLots.expiresOn} >= ${today} AND ${pointsLots.expiresOn} <= ${lastDay}`,
        ),
      );
    return Number(row?.points ?? 0);
  },

  /**
   * Customers whose lots expire in [from, to], a batch at a time in customer order (those
   * after `afterCustomerId`): the points expiring and the last day they do. Reads the range of
   * the due-lots index only.
   */
  async expiringByCustomer(
    tx: Tx,
    window: { from: string; to: string; afterCustomerId: number; limit: number },
  ) {
    const result = await tx.execute<{ customer_id: number; points: number; last_day: string }>(sql`
      SELECT customer_id, sum(remaining)::int AS points, max(expires_on)::text AS last_day
        FROM points_lots
       WHERE remaining > 0 AND expires_on IS NOT NULL
         AND expires_on BETWEEN ${window.from}::date AND ${window.to}::date
         AND customer_id > ${window.afterCustomerId}
       GROUP BY customer_id
       ORDER BY customer_id
       LIMIT ${window.limit}`);
    return result.rows.map((row) => ({
      customerId: row.customer_id,
      points: row.points,
      lastDay: row.last_day,
    }));
  },
};
