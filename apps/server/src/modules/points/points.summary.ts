import { addDays } from '@kanak/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { lotsRepo } from './points.lots.js';
import { rulesRepo } from './points.rules.js';
import { tierStandingOf } from './points.tiers.js';

/** How far ahead the profile screens warn of points about to expire. */
export const EXPIRY_WARNING_DAYS = 30;

/**
 * What other modules may read of customers' points: the balance's rupee value under the rules
 * in force, and the points of their lots expiring within the next 30 days.
 */
export const pointsSummaryReader = {
  /** Where the customer stands among the tiers; nothing while no tiers are set. */
  tierOf: tierStandingOf,

  async summaryOf(tx: Tx, customerId: number, balance: number, today: string) {
    const rules = await rulesRepo.current(tx);
    return {
      pointsValue: (balance * rules.pointValuePaise) / 100,
      pointsExpiringIn30Days: await lotsRepo.expiringBy(
        tx,
        customerId,
        today,
        addDays(today, EXPIRY_WARNING_DAYS),
      ),
    };
  },

  /** What one point is worth under the rules in force, in paise. */
  async pointValuePaise(tx: Tx) {
    return (await rulesRepo.current(tx)).pointValuePaise;
  },

  expiringByCustomer: lotsRepo.expiringByCustomer,
};
export type PointsSummaryReader = typeof pointsSummaryReader;

/**
 * The points ledger's movement per calendar month and branch over the days [from, to]: issued
 * less redeemed and expired is the change in the points customers hold (the ledger's daily
 * figures, kept with every ledger row). The accountant's liability journal reads this.
 */
export async function pointsMovementByMonth(
  tx: Tx,
  range: { from: string; to: string; branchId?: number | undefined },
) {
  const result = await tx.execute<{
    month: string;
    branch_id: number;
    issued: number;
    redeemed: number;
    expired: number;
  }>(sql`
    SELECT to_char(day, 'YYYY-MM') AS month, branch_id,
           sum(issued)::bigint AS issued, sum(redeemed)::bigint AS redeemed,
           sum(expired)::bigint AS expired
      FROM points_by_day
     WHERE day BETWEEN ${range.from}::date AND ${range.to}::date
       AND ${range.branchId === undefined ? sql`TRUE` : sql`branch_id = ${range.branchId}`}
     GROUP BY 1, 2
     ORDER BY 1, 2`);
  return result.rows.map((row) => ({
    month: row.month,
    branchId: Number(row.branch_id),
    issued: Number(row.issued),
    redeemed: Number(row.redeemed),
    expired: Number(row.expired),
  }));
}
