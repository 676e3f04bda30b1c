import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { MESSAGES } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { pointsLots, pointsLotTakes } from '../../db/schema.js';
import { addMonths } from '../../lib/dates.js';
import { DataFaultError } from '../../lib/errors.js';

/** When points earned on `earnedOn` expire; null when the rules say never (0 months). */
export const expiryOf = (earnedOn: string, expiryMonths: number) =>
  expiryMonths === 0 ? null : addMonths(earnedOn, expiryMonths);

/**
 * The points lots: every credit is a lot, every debit takes from the lots that expire first.
 * Callers hold the customer's balance row lock, so a customer's lots change one at a time.
 */
export const lotsRepo = {
  async insert(
    tx: Tx,
    lot: {
      customerId: number;
      entryMrn: number;
      earnedOn: string;
      expiresOn: string | null;
      points: number;
    },
  ) {
    if (lot.points <= 0) return undefined;
    const [row] = await tx
      .insert(pointsLots)
      .values({ ...lot, remaining: lot.points })
      .returning({ id: pointsLots.id });
    return row!.id;
  },

  async findByEntry(tx: Tx, entryMrn: number) {
    const [row] = await tx
      .select()
      .from(pointsLots)
      .where(eq(pointsLots.entryMrn, entryMrn))
      .for('update');
    return row;
  },

  async updateLot(tx: Tx, id: number, values: Partial<typeof pointsLots.$inferInsert>) {
    await tx.update(pointsLots).set(values).where(eq(pointsLots.id, id));
  },

  /**
   * Takes `points` from the customer's lots, `preferLotId` first, then those expiring first
   * (never-expiring last); records each take against the debit `entryMrn` when given, so that
   * a cancel can give them back to the same lots. The caller has already checked the balance,
   * which the lots always equal: lots holding too few are a fault in the data, refused (409)
   * and logged, the caller's transaction undone.
   */
  async take(
    tx: Tx,
    customerId: number,
    points: number,
    options: { entryMrn?: number; preferLotId?: number } = {},
  ) {
    let left = points;
    if (left <= 0) return;
    const prefer = options.preferLotId ?? 0;
    const lots = await tx
      .select({ id: pointsLots.id, remaining: pointsLots.remaining })
      .from(pointsLots)
      .where(and(eq(pointsLots.customerId, customerId), gt(pointsLots.remaining, 0)))
      .orderBy(
        sql`${pointsLots.id} = ${prefer} DESC`,
        sql`${pointsLots.expiresOn} ASC NULLS LAST`,
        asc(pointsLots.id),
      )
      .for('update');
    const takes: { lotId: number; points: number }[] = [];
    for (const lot of lots) {
      if (left === 0) break;
      const taken = Math.min(left, lot.remaining);
      takes.push({ lotId: lot.id, points: taken });
      left -= taken;
    }
    if (left > 0)
      throw new DataFaultError(MESSAGES.pointsRecordsDisagree, {
        problem: 'points lots hold less than the balance',
        customerId,
        points,
        short: left,
      });
    for (const take of takes) {
      await tx
        .update(pointsLots)
        .set({ remaining: sql`${pointsLots.remaining} - ${take.points}` })
        .where(eq(pointsLots.id, take.lotId));
    }
    if (options.entryMrn !== undefined) {
      await tx
        .insert(pointsLotTakes)
        .values(takes.map((take) => ({ ...take, entryMrn: options.entryMrn! })));
    }
  },

  /**
   * Gives a debit's points back to the customer's lots: to the lots it took them from, as far
   * as they are still the customer's and have room (a manual credit may since have been
   * edited or moved), the rest to the customer's other lots with room, latest-expiring first;
   * anything left (never expected) becomes a lot of its own that does not expire.
   */
  async giveBack(tx: Tx, entryMrn: number, customerId: number, today: string) {
    const takes = await tx
      .delete(pointsLotTakes)
      .where(eq(pointsLotTakes.entryMrn, entryMrn))
      .returning({ lotId: pointsLotTakes.lotId, points: pointsLotTakes.points });
    let left = 0;
    for (const take of takes) {
      const [lot] = await tx
        .select({ points: pointsLots.points, remaining: pointsLots.remaining })
        .from(pointsLots)
        .where(and(eq(pointsLots.id, take.lotId), eq(pointsLots.customerId, customerId)))
        .for('update');
      const restored = lot ? Math.max(0, Math.min(take.points, lot.points - lot.remaining)) : 0;
      if (restored > 0) {
        await tx
          .update(pointsLots)
          .set({ remaining: sql`${pointsLots.remaining} + ${restored}` })
          .where(eq(pointsLots.id, take.lotId));
      }
      left += take.points - restored;
    }
    if (left > 0) {
      const roomy = await tx
        .select({
          id: pointsLots.id,
          room: sql<number>`${pointsLots.points} - ${pointsLots.remaining}`,
        })
        .from(pointsLots)
        .where(
          and(
            eq(pointsLots.customerId, customerId),
            sql`${pointsLots.points} > ${pointsLots.remaining}`,
          ),
        )
        .orderBy(sql`${pointsLots.expiresOn} DESC NULLS FIRST`, sql`${pointsLots.id} DESC`)
        .for('update');
      for (const lot of roomy) {
        if (left === 0) break;
        const given = Math.min(left, Number(lot.room));
        await tx
          .update(pointsLots)
          .set({ remaining: sql`${pointsLots.remaining} + ${given}` })
          .where(eq(pointsLots.id, lot.id));
        left -= given;
      }
    }
    if (left > 0) {
      await tx.insert(pointsLots).values({
        customerId,
        entryMrn: null,
        earnedOn: today,
        expiresOn: null,
        points: left,
        remaining: left,
      });
    }
    return takes.reduce((sum, take) => sum + take.points, 0);
  },

  /** Points of the customer's lots expiring on or before `lastDay` (from `today` on). */
  async expiringBy(tx: Tx, customerId: number, today: string, lastDay: string) {
    const [row] = await tx
      .select({ points: sql<string>`coalesce(sum(${pointsLots.remaining}), 0)` })
      .from(pointsLots)
      .where(
        and(
          eq(pointsLots.customerId, customerId),
          gt(pointsLots.remaining, 0),
          sql`${pointsLots.expiresOn} >= ${today} AND ${pointsLots.expiresOn} <= ${lastDay}`,
        ),
      );
    return Number(row?.points ?? 0);
  },

  /**
   * Customers whose lots expire in [from, to], a batch at a time in customer order (those
   * after `afterCustomerId`): the points expiring and the last day they do. Reads the range of
   * the due-lots index only.
   */
  async expiringByCustomer(
    tx: Tx,
    window: { from: string; to: string; afterCustomerId: number; limit: number },
  ) {
    const result = await tx.execute<{ customer_id: number; points: number; last_day: string }>(sql`
      SELECT customer_id, sum(remaining)::int AS points, max(expires_on)::text AS last_day
        FROM points_lots
       WHERE remaining > 0 AND expires_on IS NOT NULL
         AND expires_on BETWEEN ${window.from}::date AND ${window.to}::date
         AND customer_id > ${window.afterCustomerId}
       GROUP BY customer_id
       ORDER BY customer_id
       LIMIT ${window.limit}`);
    return result.rows.map((row) => ({
      customerId: row.customer_id,
      points: row.points,
      lastDay: row.last_day,
    }));
  },
};
