import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { accountingSettings, razorpaySettlements, tallyPushedVouchers } from '../../db/schema.js';

/** The one settings row's id. */
const ROW_ID = 1;

export type AccountingSettingsRow = typeof accountingSettings.$inferSelect;
export type SettlementRow = typeof razorpaySettlements.$inferSelect;
export type NewSettlementRow = typeof razorpaySettlements.$inferInsert;

export const accountingRepo = {
  async findSettings(tx: Tx, options: { forUpdate?: boolean } = {}) {
    const query = tx.select().from(accountingSettings).where(eq(accountingSettings.id, ROW_ID));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  async saveSettings(
    tx: Tx,
    values: { company: string; ledgers: Record<string, string>; updatedBy: number },
  ) {
    await tx
      .insert(accountingSettings)
      .values({ id: ROW_ID, ...values })
      .onConflictDoUpdate({
        target: accountingSettings.id,
        set: { ...values, updatedAt: sql`now()` },
      });
  },

  /** Which of these vouchers Tally has accepted from an earlier push. */
  async pushedAmong(tx: Tx, remoteIds: string[]): Promise<Set<string>> {
    if (remoteIds.length === 0) return new Set();
    const rows = await tx
      .select({ remoteId: tallyPushedVouchers.remoteId })
      .from(tallyPushedVouchers)
      .where(inArray(tallyPushedVouchers.remoteId, remoteIds));
    return new Set(rows.map((row) => row.remoteId));
  },

  async markPushed(tx: Tx, remoteIds: string[], userId: number) {
    for (let start = 0; start < remoteIds.length; start += 5_000) {
      await tx
        .insert(tallyPushedVouchers)
        .values(
          remoteIds.slice(start, start + 5_000).map((remoteId) => ({ remoteId, pushedBy: userId })),
        )
        .onConflictDoUpdate({
          target: tallyPushedVouchers.remoteId,
          set: { lastPushedAt: sql`now()`, pushedBy: userId },
        });
    }
  },

  /** The first and the last second of the store's days `from` to `to`, as Unix seconds. */
  async dayBounds(tx: Tx, range: { from: string; to: string }, timeZone: string) {
    const [row] = (
      await tx.execute<{ first: string; last: string }>(sql`
        SELECT extract(epoch FROM (${range.from}::date)::timestamp AT TIME ZONE ${timeZone})::bigint AS first,
               extract(epoch FROM (${range.to}::date + 1)::timestamp AT TIME ZONE ${timeZone})::bigint - 1 AS last`)
    ).rows;
    return { first: Number(row!.first), last: Number(row!.last) };
  },

  /** Which of these settlements are recorded already. */
  async settlementsAmong(tx: Tx, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await tx
      .select({ id: razorpaySettlements.id })
      .from(razorpaySettlements)
      .where(inArray(razorpaySettlements.id, ids));
    return new Set(rows.map((row) => row.id));
  },

  /** Records the settlements not recorded yet; answers those it recorded. */
  async recordSettlements(tx: Tx, rows: NewSettlementRow[]) {
    if (rows.length === 0) return [];
    return tx
      .insert(razorpaySettlements)
      .values(rows)
      .onConflictDoNothing({ target: razorpaySettlements.id })
      .returning();
  },

  /** The settlements of the store's days `from` to `to`, in the order they were made. */
  settlementsBetween(tx: Tx, range: { from: string; to: string }) {
    return tx
      .select()
      .from(razorpaySettlements)
      .where(
        and(
          gte(razorpaySettlements.settledOn, range.from),
          lte(razorpaySettlements.settledOn, range.to),
        ),
      )
      .orderBy(asc(razorpaySettlements.settledAt), asc(razorpaySettlements.id));
  },
};
export type AccountingRepo = typeof accountingRepo;
