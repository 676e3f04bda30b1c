import { addDays, pointsWorthPaise, rupeesOfPaise } from '@kanak/contract';
import { sql } from 'drizzle-orm';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import { lotsRepo } from './points.lots.js';
import { CURRENT_RULES_SQL, rulesOr, rulesRepo, type RulesRow } from './points.rules.js';
import { ladderOf, standing, tierStandingOf, yearBefore } from './points.tiers.js';
import {
  CURRENT_TIER_SETTINGS_SQL,
  STANDING_SQL,
  tierRowFromJson,
  type TierRowJson,
  type TierSettingsRow,
} from './points.tiers.repo.js';

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
      pointsValue: rupeesOfPaise(pointsWorthPaise(balance, rules.pointValuePaise)),
      pointsExpiringIn30Days: await lotsRepo.expiringBy(
        tx,
        customerId,
        today,
        addDays(today, EXPIRY_WARNING_DAYS),
      ),
    };
  },

  /**
   * All a customer's own home page shows of their points, in one round trip: the balance's
   * value, the points expiring within 30 days (and those lots), the open lots soonest-expiring
   * first, and the tier (none while no tiers are set): what summaryOf and tierOf answer apart,
   * with the lots. The counter home shows the same.
   */
  async homeOf(tx: Tx, customerId: number, balance: number, today: string) {
    const [row] = await runStatement<{
      rules: (Omit<RulesRow, 'validFrom'> & { validFrom: string }) | null;
      tiers: Pick<TierSettingsRow, 'tiers' | 'downgrade'> | null;
      standing: { tier: TierRowJson | null; spend: string };
      lots: { points: number; expiresOn: string | null }[];
    }>(tx, HOME, [customerId, yearBefore(today), today]);
    const { rules, tiers, lots } = row!;
    const pointValuePaise = rulesOr(
      rules ? { ...rules, validFrom: new Date(rules.validFrom) } : undefined,
    ).pointValuePaise;
    const lastDay = addDays(today, EXPIRY_WARNING_DAYS);
    // The lots that expire within the warning days, soonest first as the lots are.
    const expiringSoon = lots.filter(
      (lot): lot is { points: number; expiresOn: string } =>
        lot.expiresOn !== null && lot.expiresOn >= today && lot.expiresOn <= lastDay,
    );
    const ladder = ladderOf(tiers ?? undefined);
    const tierRow = row!.standing.tier;
    return {
      pointsValue: rupeesOfPaise(pointsWorthPaise(balance, pointValuePaise)),
      pointsExpiringIn30Days: expiringSoon.reduce((sum, lot) => sum + lot.points, 0),
      expiringSoon,
      lots,
      tier:
        ladder.tiers.length === 0
          ? undefined
          : standing(
              ladder,
              tierRow ? tierRowFromJson(tierRow) : undefined,
              Number(row!.standing.spend),
              today,
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
 * The reads of homeOf as one statement, each the points module's own query: the rules and the
 * tier settings in force, the customer's standing, their open lots. $1 customer, $2 the day
 * before the 12 months, $3 today.
 */
const HOME: Statement = {
  name: 'points_home',
  text: `
    SELECT (SELECT row_to_json(r) FROM (${CURRENT_RULES_SQL}) r) AS rules,
           (SELECT row_to_json(t) FROM (${CURRENT_TIER_SETTINGS_SQL}) t) AS tiers,
           (SELECT row_to_json(s) FROM (${STANDING_SQL}) s) AS standing,
           (SELECT coalesce(json_agg(json_build_object('points', l.remaining,
                                                       'expiresOn', l.expires_on)
                                     ORDER BY l.expires_on ASC NULLS LAST, l.id), '[]')
              FROM points_lots l WHERE l.customer_id = $1::int AND l.remaining > 0) AS lots`,
};

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

/**
 * The points issued, redeemed and expired on `day` across every branch, from the daily totals
 * the ledger's trigger keeps (a few rows, however long the ledger).
 */
export async function pointsOfDay(tx: Tx, day: string) {
  const [row] = (
    await tx.execute<{ issued: number; redeemed: number; expired: number }>(sql`
      SELECT coalesce(sum(issued), 0)::bigint AS issued, coalesce(sum(redeemed), 0)::bigint AS redeemed,
             coalesce(sum(expired), 0)::bigint AS expired
        FROM points_by_day
       WHERE day = ${day}::date`)
  ).rows;
  return {
    issued: Number(row?.issued ?? 0),
    redeemed: Number(row?.redeemed ?? 0),
    expired: Number(row?.expired ?? 0),
  };
}
