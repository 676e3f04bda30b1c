import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { pointsEntries, pointsEntryHistory } from '../../db/schema.js';

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

  /**
   * An erasure: the customer's narrations typed by staff, in the ledger and in its edit
   * history, become `replacement`, except the ledger's own default words (`keep`). Amounts,
   * dates and codes stay.
   */
  async eraseNarrations(tx: Tx, customerId: number, replacement: string, keep: string[]) {
    const kept = sql`array[${sql.join(
      keep.map((text) => sql`${text}`),
      sql`, `,
    )}]::text[]`;
    await tx
      .update(pointsEntries)
      .set({ narration: replacement })
      .where(
        and(
          eq(pointsEntries.customerId, customerId),
          eq(pointsEntries.source, 'M'),
          sql`NOT (${pointsEntries.narration} = ANY(${kept}))`,
        ),
      );
    // Either side of an edit may have been this customer's (an entry moved between customers).
    const side = (column: AnyPgColumn) => sql`CASE
      WHEN ${column}->>'customerId' = ${String(customerId)} AND NOT (${column}->>'narration' = ANY(${kept}))
        THEN jsonb_set(${column}, '{narration}', to_jsonb(${replacement}::text))
      ELSE ${column} END`;
    await tx
      .update(pointsEntryHistory)
      .set({ before: side(pointsEntryHistory.before), after: side(pointsEntryHistory.after) })
      .where(
        sql`${pointsEntryHistory.before}->>'customerId' = ${String(customerId)}
          OR ${pointsEntryHistory.after}->>'customerId' = ${String(customerId)}`,
      );
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
export type PointsRepo = typeof pointsRepo;
