import { and, asc, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { customerTiers, tierSettings } from '../../db/schema.js';

export type TierSettingsRow = typeof tierSettings.$inferSelect;
export type CustomerTierRow = typeof customerTiers.$inferSelect;

/** The tier settings and each customer's tier (SQL only; the rules are in points.tiers.ts). */
export const tiersRepo = {
  async currentSettings(tx: Tx): Promise<TierSettingsRow | undefined> {
    const [row] = await tx
      .select()
      .from(tierSettings)
      .where(sql`${tierSettings.validFrom} <= now()`)
      .orderBy(desc(tierSettings.validFrom), desc(tierSettings.id))
      .limit(1);
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

  async find(tx: Tx, customerId: number): Promise<CustomerTierRow | undefined> {
    const [row] = await tx
      .select()
      .from(customerTiers)
      .where(eq(customerTiers.customerId, customerId));
    return row;
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
   * Eligible spend in paise of the customer's sales dated after `after` up to `today`, less
   * what was returned of those sales.
   */
  async spend(tx: Tx, customerId: number, after: string, today: string) {
    const result = await tx.execute<{ spend: string }>(sql`
      SELECT coalesce(sum(s.eligible_paise - coalesce((
               SELECT sum(r.eligible_paise) FROM pos_returns r WHERE r.sale_id = s.id), 0)), 0)
               AS spend
        FROM pos_sales s
       WHERE s.customer_id = ${customerId}
         AND s.invoice_date > ${after} AND s.invoice_date <= ${today}`);
    return Number(result.rows[0]!.spend);
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
