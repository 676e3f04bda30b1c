import { inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { customers } from '../../db/schema.js';

type NewCustomer = typeof customers.$inferInsert;

/**
 * The customers module's writes for an import from other software, in the importer's
 * transaction: the batch's new customers, and the changed profile fields of known ones.
 */
export const customersImport = {
  async updateProfile(tx: Tx, id: number, fields: Partial<NewCustomer>, byId: number | null) {
    await tx
      .update(customers)
      .set({ ...fields, updatedBy: byId, updatedAt: sql`now()` })
      .where(sql`${customers.id} = ${id}`);
  },

  /** Of these keyed hashes of mobile numbers, those of customers erased at their request. */
  async erasedAmong(tx: Tx, hashes: string[]) {
    if (hashes.length === 0) return new Set<string>();
    const rows = await tx
      .select({ hash: customers.erasedMobileHash })
      .from(customers)
      .where(inArray(customers.erasedMobileHash, hashes));
    return new Set(rows.map((row) => row.hash!));
  },

  /**
   * Adds the batch's new customers. A number enrolled at a counter meanwhile is that
   * customer's now, so it is left out (the next import run updates it).
   */
  insertNew(tx: Tx, rows: NewCustomer[]) {
    if (rows.length === 0) return Promise.resolve([]);
    return tx
      .insert(customers)
      .values(rows)
      .onConflictDoNothing()
      .returning({ id: customers.id, mobileno: customers.mobileno });
  },
};
