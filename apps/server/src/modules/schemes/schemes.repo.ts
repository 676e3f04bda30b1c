import { and, asc, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { customers, receiptCounter, schemeInstallments, schemes } from '../../db/schema.js';

export type SchemeRow = typeof schemes.$inferSelect;
export type InstallmentRow = typeof schemeInstallments.$inferSelect;

export const schemesRepo = {
  /** The customer's schemes, newest first; cancelled ones are kept but not listed. */
  listForCustomer(tx: Tx, customerId: number) {
    return tx
      .select({
        scheme: schemes,
        // Spelled out: in a one-table select, drizzle renders ${schemes.id} as a bare "id",
        // which inside this subquery would mean scheme_installments.id.
        paid: sql<number>`(SELECT count(*)::int FROM scheme_installments AS i WHERE i.scheme_id = schemes.id)`,
      })
      .from(schemes)
      .where(and(eq(schemes.customerId, customerId), ne(schemes.status, 'x')))
      .orderBy(desc(schemes.id));
  },

  async latestForCustomer(tx: Tx, customerId: number) {
    const [row] = await tx
      .select()
      .from(schemes)
      .where(and(eq(schemes.customerId, customerId), ne(schemes.status, 'x')))
      .orderBy(desc(schemes.id))
      .limit(1);
    return row;
  },

  async insert(tx: Tx, values: typeof schemes.$inferInsert) {
    const [row] = await tx.insert(schemes).values(values).returning();
    return row!;
  },

  async find(tx: Tx, id: number, options: { forUpdate?: boolean } = {}) {
    const query = tx.select().from(schemes).where(eq(schemes.id, id));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  async update(tx: Tx, id: number, values: Partial<typeof schemes.$inferInsert>) {
    const [row] = await tx.update(schemes).set(values).where(eq(schemes.id, id)).returning();
    return row!;
  },

  installments(tx: Tx, schemeId: number) {
    return tx
      .select()
      .from(schemeInstallments)
      .where(eq(schemeInstallments.schemeId, schemeId))
      .orderBy(asc(schemeInstallments.paidOn), asc(schemeInstallments.id));
  },

  /** The next receipt number; the counter row stays locked until commit, so no gaps. */
  async nextReceiptNo(tx: Tx) {
    const [row] = await tx
      .update(receiptCounter)
      .set({ lastNo: sql`${receiptCounter.lastNo} + 1` })
      .where(eq(receiptCounter.id, 1))
      .returning({ no: receiptCounter.lastNo });
    return row!.no;
  },

  async insertInstallment(tx: Tx, values: typeof schemeInstallments.$inferInsert) {
    const [row] = await tx.insert(schemeInstallments).values(values).returning();
    return row!;
  },

  summary(tx: Tx, filter: { statuses: string[]; from: string; to: string; mobileno: string }) {
    return tx
      .select({
        schemeid: schemes.id,
        custname: customers.custname,
        mobileno: customers.mobileno,
        startdt: schemes.startdt,
        amount: schemes.amount,
        matyn: schemes.status,
      })
      .from(schemes)
      .innerJoin(customers, eq(customers.id, schemes.customerId))
      .where(
        and(
          inArray(schemes.status, filter.statuses),
          gte(schemes.startdt, filter.from),
          lte(schemes.startdt, filter.to),
          filter.mobileno ? eq(customers.mobileno, filter.mobileno) : undefined,
        ),
      )
      .orderBy(asc(schemes.startdt), asc(schemes.id));
  },
};
