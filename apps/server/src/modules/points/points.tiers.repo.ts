import { and, asc, isNotNull, lte, sql } from 'drizzle-orm';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import { customerTiers, tierSettings } from '../../db/schema.js';

export type TierSettingsRow = typeof tierSettings.$inferSelect;
export type CustomerTierRow = typeof customerTiers.$inferSelect;

/** The tier settings in force now, as a query others may nest (a sale reads them with its own). */
export const CURRENT_TIER_SETTINGS_SQL = `
    SELECT id, valid_from AS "validFrom", tiers, downgrade, created_by AS "createdBy"
      FROM tier_settings WHERE valid_from <= now()
     ORDER BY valid_from DESC, id DESC LIMIT 1`;

const CURRENT_SETTINGS: Statement = {
  name: 'tier_settings_current',
  text: CURRENT_TIER_SETTINGS_SQL,
};

/**
 * The customer's tier row (as JSON) and 12-month spend, as a query others may nest. $1 customer,
 * $2 the day before the 12 months, $3 today.
 */
export const STANDING_SQL = `
    SELECT (SELECT row_to_json(t) FROM customer_tiers t WHERE t.customer_id = $1::int) AS tier,
           coalesce(sum(s.eligible_paise - coalesce((
             SELECT sum(r.eligible_paise) FROM pos_returns r WHERE r.sale_id = s.id), 0)), 0)
             AS spend
      FROM pos_sales s
     WHERE s.customer_id = $1::int AND s.invoice_date > $2::date AND s.invoice_date <= $3::date`;

const STANDING: Statement = { name: 'tier_standing', text: STANDING_SQL };

/** A customer_tiers row as row_to_json gives it. */
export interface TierRowJson {
  customer_id: number;
  earned_code: string | null;
  earned_on: string | null;
  review_on: string | null;
  manual_code: string | null;
  manual_until: string | null;
  updated_at: string;
}

export const tierRowFromJson = (row: TierRowJson): CustomerTierRow => ({
  customerId: row.customer_id,
  earnedCode: row.earned_code,
  earnedOn: row.earned_on,
  reviewOn: row.review_on,
  manualCode: row.manual_code,
  manualUntil: row.manual_until,
  updatedAt: new Date(row.updated_at),
});

/** The tier settings and each customer's tier (SQL only; the rules are in points.tiers.ts). */
export const tiersRepo = {
  async currentSettings(tx: Tx): Promise<TierSettingsRow | undefined> {
    const [row] = await runStatement<TierSettingsRow>(tx, CURRENT_SETTINGS, []);
    return row;
  },

  async saveSettings(tx: Tx, values: Omit<typeof tierSettings.$inferInsert, 'validFrom'>) {
    const [row] = await tx
      .insert(tierSettings)
      // The statement's own clock, so a sale in a later transaction sees these settings.
      .values({ ...values, validFrom: sql`clock_timestamp()` })
      .returning({ id: tierSettings.id });
    return row!.id;
  },

  async save(tx: Tx, customerId: number, values: Partial<Omit<CustomerTierRow, 'customerId'>>) {
    await tx
      .insert(customerTiers)
      .values({ customerId, ...values })
      .onConflictDoUpdate({
        target: customerTiers.customerId,
        set: { ...values, updatedAt: sql`now()` },
      });
  },

  /**
   * The customer's tier row and their eligible spend in paise of the sales dated after `after`
   * up to `today`, less what was returned of those sales: one round trip, as a sale asks both.
   */
  async standing(tx: Tx, customerId: number, after: string, today: string) {
    const [row] = await runStatement<{ tier: TierRowJson | null; spend: string }>(tx, STANDING, [
      customerId,
      after,
      today,
    ]);
    const tier = row!.tier;
    return {
      row: tier ? tierRowFromJson(tier) : undefined,
      spend: Number(row!.spend),
    };
  },

  /** Earned tiers whose anniversary has come by `today`, oldest first. */
  async due(tx: Tx, today: string, limit: number) {
    return tx
      .select()
      .from(customerTiers)
      .where(and(isNotNull(customerTiers.reviewOn), lte(customerTiers.reviewOn, today)))
      .orderBy(asc(customerTiers.reviewOn), asc(customerTiers.customerId))
      .limit(limit);
  },

  /** Of these tier codes, those customers hold (earned, or by hand still in force), with how many. */
  async holders(tx: Tx, codes: string[], today: string) {
    if (codes.length === 0) return [];
    // Tier codes are letters, digits and _ only: safe inside an array literal.
    const result = await tx.execute<{ code: string; customers: string }>(sql`
      SELECT code, count(DISTINCT customer_id) AS customers
        FROM customer_tiers,
             LATERAL (VALUES (earned_code),
                             (CASE WHEN manual_until >= ${today} THEN manual_code END)) held(code)
       WHERE code = ANY(${`{${codes.join(',')}}`}::text[])
       GROUP BY code ORDER BY code`);
    return result.rows.map((row) => ({ code: row.code, customers: Number(row.customers) }));
  },

  /** Customers per earned tier and per tier set by hand still in force on `today`. */
  async counts(tx: Tx, today: string) {
    const result = await tx.execute<{ earned: string | null; manual: string | null; n: string }>(
      sql`
      SELECT earned_code AS earned,
             CASE WHEN manual_until >= ${today} THEN manual_code END AS manual,
             count(*) AS n
        FROM customer_tiers
       WHERE earned_code IS NOT NULL OR (manual_code IS NOT NULL AND manual_until >= ${today})
       GROUP BY 1, 2`,
    );
    return result.rows.map((row) => ({ ...row, n: Number(row.n) }));
  },
};
