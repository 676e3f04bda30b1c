import { and, asc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { customers, pointsEntries, pointsEntryHistory } from '../../db/schema.js';

export type EntryRow = typeof pointsEntries.$inferSelect;
export type NewEntry = Omit<typeof pointsEntries.$inferInsert, 'mrn' | 'createdAt'>;

const lockedColumns = {
  id: customers.id,
  custname: customers.custname,
  mobileno: customers.mobileno,
  balance: customers.pointsBalance,
};

export const pointsRepo = {
  /**
   * Adds `delta` to the balance unless that would take it below zero, in one statement: the
   * UPDATE locks the row and re-checks the condition after any concurrent change, so two
   * deductions can never both spend the same points. No row: unknown mobile or too few points.
   */
  async changeBalanceByMobile(tx: Tx, mobileno: string, delta: number) {
    const [row] = await tx
      .update(customers)
      .set({ pointsBalance: sql`${customers.pointsBalance} + ${delta}` })
      .where(and(eq(customers.mobileno, mobileno), sql`${customers.pointsBalance} + ${delta} >= 0`))
      .returning(lockedColumns);
    return row;
  },

  /** Several customers locked in id order, so two edits can never wait on each other. */
  lockCustomersById(tx: Tx, ids: number[]) {
    return tx
      .select(lockedColumns)
      .from(customers)
      .where(inArray(customers.id, ids))
      .orderBy(asc(customers.id))
      .for('update');
  },

  async findCustomerByMobile(tx: Tx, mobileno: string) {
    const [row] = await tx
      .select(lockedColumns)
      .from(customers)
      .where(eq(customers.mobileno, mobileno));
    return row;
  },

  async addToBalance(tx: Tx, customerId: number, delta: number) {
    if (delta === 0) return;
    await tx
      .update(customers)
      .set({ pointsBalance: sql`${customers.pointsBalance} + ${delta}` })
      .where(eq(customers.id, customerId));
  },

  async insertEntry(tx: Tx, entry: NewEntry) {
    const [row] = await tx.insert(pointsEntries).values(entry).returning();
    return row!;
  },

  async findEntryForUpdate(tx: Tx, mrn: number) {
    const [row] = await tx
      .select()
      .from(pointsEntries)
      .where(eq(pointsEntries.mrn, mrn))
      .for('update');
    return row;
  },

  async updateEntry(tx: Tx, mrn: number, values: Partial<NewEntry>) {
    const [row] = await tx
      .update(pointsEntries)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(pointsEntries.mrn, mrn))
      .returning();
    return row!;
  },

  async insertHistory(tx: Tx, mrn: number, before: EntryRow, after: EntryRow, changedBy: number) {
    await tx.insert(pointsEntryHistory).values({ mrn, before, after, changedBy });
  },

  /** Net points and number of entries dated before `date`: the statement's opening line. */
  async openingBalance(tx: Tx, customerId: number, date: string) {
    const [row] = await tx
      .select({
        net: sql<number>`coalesce(sum(${pointsEntries.credit} - ${pointsEntries.debit}), 0)::bigint`,
        entries: sql<number>`count(*)::int`,
      })
      .from(pointsEntries)
      .where(and(eq(pointsEntries.customerId, customerId), lt(pointsEntries.invdate, date)));
    return { net: Number(row?.net ?? 0), entries: row?.entries ?? 0 };
  },

  entriesBetween(tx: Tx, customerId: number, from: string, to: string) {
    return tx
      .select()
      .from(pointsEntries)
      .where(
        and(
          eq(pointsEntries.customerId, customerId),
          gte(pointsEntries.invdate, from),
          lte(pointsEntries.invdate, to),
        ),
      )
      .orderBy(asc(pointsEntries.invdate), asc(pointsEntries.mrn));
  },
};
