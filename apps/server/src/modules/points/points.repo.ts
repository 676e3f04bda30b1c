import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { pointsEntries } from '../../db/schema.js';
import { eraseNamingInOthers, eraseNarrations } from './points.ledger.js';

export type EntryRow = typeof pointsEntries.$inferSelect;
export type NewEntry = Omit<typeof pointsEntries.$inferInsert, 'mrn' | 'createdAt'>;

export const pointsRepo = {
  /** Every ledger row of a customer, in statement order, for the customer's copy of their data. */
  allForCustomer(tx: Tx, customerId: number) {
    return tx
      .select()
      .from(pointsEntries)
      .where(eq(pointsEntries.customerId, customerId))
      .orderBy(asc(pointsEntries.invdate), asc(pointsEntries.mrn));
  },

  /** An erasure of the customer's narrations typed by staff (see the ledger's). */
  eraseNarrations,

  /** An erasure of the customer's mentions in other customers' narrations (the ledger's). */
  eraseNamingInOthers,

  async findEntryForUpdate(tx: Tx, mrn: number) {
    const [row] = await tx
      .select()
      .from(pointsEntries)
      .where(eq(pointsEntries.mrn, mrn))
      .for('update');
    return row;
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
export type PointsRepo = typeof pointsRepo;
