import { and, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { posRedemptions, posReturns, posSales } from '../../db/schema.js';

/**
 * The POS's documents. Each is claimed first by its (branch, number): of two identical posts
 * at once, the second waits on the first's unique key and then finds its row.
 */
export const posRepo = {
  async claimSale(tx: Tx, values: typeof posSales.$inferInsert) {
    const [row] = await tx
      .insert(posSales)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: posSales.id });
    return row?.id;
  },

  async findSale(tx: Tx, branchCode: string, invoiceNo: string, options: { lock?: boolean } = {}) {
    const query = tx
      .select()
      .from(posSales)
      .where(and(eq(posSales.branchCode, branchCode), eq(posSales.invoiceNo, invoiceNo)));
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  async updateSale(tx: Tx, id: number, values: Partial<typeof posSales.$inferInsert>) {
    await tx.update(posSales).set(values).where(eq(posSales.id, id));
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
