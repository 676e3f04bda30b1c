import { and, eq, ne, sql } from 'drizzle-orm';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import { posRedemptions, posReturns, posSales } from '../../db/schema.js';
import { CURRENT_RULES_SQL, type RulesRow } from './points.rules.js';
import { CURRENT_TIER_SETTINGS_SQL, type TierSettingsRow } from './points.tiers.repo.js';

// A sale's own statements, written once and prepared: every counter's sale runs them.
const SALE_POSTED: Statement = {
  name: 'pos_sale_posted',
  text: `SELECT request_hash AS "requestHash", response FROM pos_sales
          WHERE branch_code = $1 AND invoice_no = $2`,
};
/**
 * What a sale needs before it claims its number, in one round trip: the rules and the tier
 * settings in force, and the sale with this number if it was posted before. $1 branch, $2 number.
 */
const SALE_TERMS: Statement = {
  name: 'pos_sale_terms',
  text: `
    SELECT (SELECT row_to_json(r) FROM (${CURRENT_RULES_SQL}) r) AS rules,
           (SELECT row_to_json(t) FROM (${CURRENT_TIER_SETTINGS_SQL}) t) AS tiers,
           (SELECT row_to_json(p) FROM (${SALE_POSTED.text}) p) AS posted`,
};
const CLAIM_SALE: Statement = {
  name: 'pos_sale_claim',
  text: `INSERT INTO pos_sales (branch_code, invoice_no, request_hash, invoice_date,
           sale_amount_paise, eligible_paise, excluded_categories, api_key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
};
const STORE_SALE_ANSWER: Statement = {
  name: 'pos_sale_answer',
  text: `UPDATE pos_sales SET customer_id = $2, points = $3, entry_mrn = $4, response = $5
          WHERE id = $1`,
};

/**
 * The POS's documents. Each is claimed first by its (branch, number): of two identical posts
 * at once, the second waits on the first's unique key and then finds its row.
 */
export const posRepo = {
  async saleTerms(tx: Tx, branchCode: string, invoiceNo: string) {
    const [row] = await runStatement<{
      rules: (Omit<RulesRow, 'validFrom'> & { validFrom: string }) | null;
      tiers: Pick<TierSettingsRow, 'tiers' | 'downgrade'> | null;
      posted: { requestHash: string; response: unknown } | null;
    }>(tx, SALE_TERMS, [branchCode, invoiceNo]);
    const { rules, tiers, posted } = row!;
    return {
      rules: rules ? { ...rules, validFrom: new Date(rules.validFrom) } : undefined,
      tierSettings: tiers ?? undefined,
      posted: posted ?? undefined,
    };
  },

  async claimSale(
    tx: Tx,
    values: Pick<
      typeof posSales.$inferInsert,
      | 'branchCode'
      | 'invoiceNo'
      | 'requestHash'
      | 'invoiceDate'
      | 'saleAmountPaise'
      | 'eligiblePaise'
      | 'excludedCategories'
      | 'apiKeyId'
    >,
  ) {
    const [row] = await runStatement<{ id: number }>(tx, CLAIM_SALE, [
      values.branchCode,
      values.invoiceNo,
      values.requestHash,
      values.invoiceDate,
      values.saleAmountPaise,
      values.eligiblePaise,
      JSON.stringify(values.excludedCategories),
      values.apiKeyId ?? null,
    ]);
    return row?.id;
  },

  /** A posted sale's contents and answer, for telling a repeat from a clash. */
  async salePosted(tx: Tx, branchCode: string, invoiceNo: string) {
    const [row] = await runStatement<{ requestHash: string; response: unknown }>(tx, SALE_POSTED, [
      branchCode,
      invoiceNo,
    ]);
    return row;
  },

  async storeSaleAnswer(
    tx: Tx,
    id: number,
    values: { customerId: number; points: number; entryMrn: number; response: unknown },
  ) {
    await runStatement(tx, STORE_SALE_ANSWER, [
      id,
      values.customerId,
      values.points,
      values.entryMrn,
      JSON.stringify(values.response),
    ]);
  },

  async findSale(tx: Tx, branchCode: string, invoiceNo: string, options: { lock?: boolean } = {}) {
    const query = tx
      .select()
      .from(posSales)
      .where(and(eq(posSales.branchCode, branchCode), eq(posSales.invoiceNo, invoiceNo)));
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  async claimReturn(tx: Tx, values: typeof posReturns.$inferInsert) {
    const [row] = await tx
      .insert(posReturns)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: posReturns.id });
    return row?.id;
  },

  async findReturn(tx: Tx, branchCode: string, returnNo: string) {
    const [row] = await tx
      .select()
      .from(posReturns)
      .where(and(eq(posReturns.branchCode, branchCode), eq(posReturns.returnNo, returnNo)));
    return row;
  },

  /** What earlier returns of the sale took: amounts, eligible amounts and points due. */
  async returnedBefore(tx: Tx, saleId: number, exceptId: number) {
    const [row] = await tx
      .select({
        amount: sql<string>`coalesce(sum(${posReturns.amountPaise}), 0)`,
        eligible: sql<string>`coalesce(sum(${posReturns.eligiblePaise}), 0)`,
        due: sql<string>`coalesce(sum(${posReturns.points} + ${posReturns.unrecovered}), 0)`,
      })
      .from(posReturns)
      .where(and(eq(posReturns.saleId, saleId), ne(posReturns.id, exceptId)));
    return { amount: Number(row!.amount), eligible: Number(row!.eligible), due: Number(row!.due) };
  },

  async updateReturn(tx: Tx, id: number, values: Partial<typeof posReturns.$inferInsert>) {
    await tx.update(posReturns).set(values).where(eq(posReturns.id, id));
  },

  async claimRedemption(tx: Tx, values: typeof posRedemptions.$inferInsert) {
    const [row] = await tx
      .insert(posRedemptions)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: posRedemptions.id });
    return row?.id;
  },

  async findRedemption(
    tx: Tx,
    branchCode: string,
    invoiceNo: string,
    options: { lock?: boolean } = {},
  ) {
    const query = tx
      .select()
      .from(posRedemptions)
      .where(
        and(eq(posRedemptions.branchCode, branchCode), eq(posRedemptions.invoiceNo, invoiceNo)),
      );
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  async updateRedemption(tx: Tx, id: number, values: Partial<typeof posRedemptions.$inferInsert>) {
    await tx.update(posRedemptions).set(values).where(eq(posRedemptions.id, id));
  },
};
