import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { schemePlans, schemes } from '../../db/schema.js';

export type SchemePlanRow = typeof schemePlans.$inferSelect;

/** Schemes started on the plan (cancelled ones hold nothing and do not count). */
const schemesOn = sql<number>`(SELECT count(*)::integer FROM ${schemes}
  WHERE ${schemes.planId} = ${schemePlans.id} AND ${schemes.status} <> 'x')`;

export const schemePlansRepo = {
  /** Every plan with how many schemes use it, by code. */
  list(tx: Tx) {
    return tx
      .select({ plan: schemePlans, schemes: schemesOn })
      .from(schemePlans)
      .orderBy(asc(schemePlans.code));
  },

  /**
   * Holds the code for the rest of the transaction, whether or not a plan has it yet: two
   * saves of a new code take turns, and the second finds the first's plan.
   */
  async holdCode(tx: Tx, code: string) {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext('kanak.scheme-plan'), hashtext(${code}))`,
    );
  },

  async byCode(tx: Tx, code: string, options: { lock?: 'update' | 'share' } = {}) {
    const query = tx.select().from(schemePlans).where(eq(schemePlans.code, code));
    const [row] = options.lock ? await query.for(options.lock) : await query;
    return row;
  },

  async byId(tx: Tx, id: number) {
    const [row] = await tx.select().from(schemePlans).where(eq(schemePlans.id, id));
    return row;
  },

  async schemesOn(tx: Tx, planId: number) {
    const [row] = await tx
      .select({ count: sql<number>`count(*)::integer` })
      .from(schemes)
      .where(and(eq(schemes.planId, planId), ne(schemes.status, 'x')));
    return row!.count;
  },

  async insert(tx: Tx, values: typeof schemePlans.$inferInsert) {
    const [row] = await tx.insert(schemePlans).values(values).returning();
    return row!;
  },

  async update(tx: Tx, id: number, values: Partial<typeof schemePlans.$inferInsert>) {
    const [row] = await tx
      .update(schemePlans)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(schemePlans.id, id))
      .returning();
    return row!;
  },
};
