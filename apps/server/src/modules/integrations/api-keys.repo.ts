import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { apiKeys, branches } from '../../db/schema.js';

export const apiKeysRepo = {
  async insert(tx: Tx, values: typeof apiKeys.$inferInsert) {
    const [row] = await tx.insert(apiKeys).values(values).returning({ id: apiKeys.id });
    return row!;
  },

  list(tx: Tx) {
    return tx
      .select({
        id: apiKeys.id,
        label: apiKeys.label,
        prefix: apiKeys.prefix,
        branch: branches.code,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .innerJoin(branches, eq(branches.id, apiKeys.branchId))
      .orderBy(asc(apiKeys.id));
  },

  async revoke(tx: Tx, id: number, revokedBy: number | null) {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())`, revokedBy })
      .where(eq(apiKeys.id, id))
      .returning({ id: apiKeys.id, label: apiKeys.label });
    return row;
  },

  /**
   * The live key with this hash. Its last use is written at most once a minute, so a busy
   * counter does not turn every posting into two writes.
   */
  async use(tx: Tx, keyHash: string) {
    const [row] = await tx
      .select({
        id: apiKeys.id,
        label: apiKeys.label,
        branchId: apiKeys.branchId,
        branchCode: branches.code,
        lastUsedAt: apiKeys.lastUsedAt,
      })
      .from(apiKeys)
      .innerJoin(branches, eq(branches.id, apiKeys.branchId))
      .where(sql`${apiKeys.keyHash} = ${keyHash} AND ${apiKeys.revokedAt} IS NULL`);
    if (!row) return undefined;
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
      await tx
        .update(apiKeys)
        .set({ lastUsedAt: sql`now()` })
        .where(eq(apiKeys.id, row.id));
    }
    return { id: row.id, label: row.label, branchId: row.branchId, branchCode: row.branchCode };
  },
};
