import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { panelConfig } from '../../db/schema.js';

/** The one configuration row's id. */
const ROW_ID = 1;

export type PanelConfigRow = typeof panelConfig.$inferSelect;
export type PanelConfigValues = Omit<typeof panelConfig.$inferInsert, 'id' | 'updatedAt'>;

export const messagingRepo = {
  async find(tx: Tx, options: { forUpdate?: boolean } = {}) {
    const query = tx.select().from(panelConfig).where(eq(panelConfig.id, ROW_ID));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  async upsert(tx: Tx, values: PanelConfigValues) {
    const [row] = await tx
      .insert(panelConfig)
      .values({ id: ROW_ID, ...values })
      .onConflictDoUpdate({ target: panelConfig.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    return row!;
  },
};
export type MessagingRepo = typeof messagingRepo;
