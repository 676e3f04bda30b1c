import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Branch } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { branches } from '../../db/schema.js';

export type BranchRow = typeof branches.$inferSelect;

/** The branch as screens and printouts show it. */
export const toBranch = (row: BranchRow): Branch => ({
  code: row.code,
  name: row.name,
  address: row.address,
  phone: row.phone,
  ...(row.state ? { state: row.state } : {}),
  // Absent means A4, as for every branch before receipts had a choice of paper.
  ...(row.receiptPaper === '80mm' ? { receiptPaper: '80mm' as const } : {}),
});

export const branchesRepo = {
  list(tx: Tx) {
    return tx.select().from(branches).orderBy(asc(branches.id));
  },

  async findByCode(tx: Tx, code: string) {
    const [row] = await tx.select().from(branches).where(eq(branches.code, code));
    return row;
  },

  async findById(tx: Tx, id: number) {
    const [row] = await tx.select().from(branches).where(eq(branches.id, id));
    return row;
  },

  findByIds(tx: Tx, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([] as BranchRow[]);
    return tx.select().from(branches).where(inArray(branches.id, ids));
  },

  /** The shop's first branch: where accounts go when no branch is named. */
  async first(tx: Tx) {
    const [row] = await tx.select().from(branches).orderBy(asc(branches.id)).limit(1);
    return row!;
  },

  /**
   * Create the branch, or update the one with this code; the row before (none for a new one)
   * and after. The code's row is locked so two saves of one code apply one after the other.
   */
  async save(tx: Tx, values: Branch) {
    const [before] = await tx
      .select()
      .from(branches)
      .where(eq(branches.code, values.code))
      .for('update');
    const [after] = await tx
      .insert(branches)
      .values(values)
      .onConflictDoUpdate({
        target: branches.code,
        set: {
          name: values.name,
          address: values.address,
          phone: values.phone,
          ...(values.state === undefined ? {} : { state: values.state }),
          ...(values.receiptPaper === undefined ? {} : { receiptPaper: values.receiptPaper }),
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return { before, after: after! };
  },

  /**
   * The first branch takes SHOP_ADDRESS and SHOP_PHONE until it has an address of its own:
   * the migration that made it could not read the environment.
   */
  async fillFirstBranch(tx: Tx, address: string, phone: string) {
    await tx
      .update(branches)
      .set({ address, phone, updatedAt: sql`now()` })
      .where(
        sql`${branches.id} = (SELECT min(id) FROM branches) AND ${branches.address} = '' AND ${branches.phone} = ''`,
      );
  },
};

export type BranchesRepo = typeof branchesRepo;
