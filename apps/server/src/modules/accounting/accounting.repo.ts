import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { accountingSettings, tallyPushedVouchers } from '../../db/schema.js';

/** The one settings row's id. */
const ROW_ID = 1;

export type AccountingSettingsRow = typeof accountingSettings.$inferSelect;

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
};
export type AccountingRepo = typeof accountingRepo;
