import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  branches,
  customers,
  gatewayEvents,
  memberCodes,
  memberSessions,
  onlineExtraPayments,
  onlineOrders,
  pointsEntries,
  pointsLots,
  posReturns,
  posSales,
} from '../../db/schema.js';

export type OnlineOrder = typeof onlineOrders.$inferSelect;

/** SQL of the customer's own side: codes, sessions, online orders, and their reads. */
export const membersRepo = {
  async insertCode(tx: Tx, values: typeof memberCodes.$inferInsert) {
    // One live code per number: a new one ends those before it.
    await tx
      .update(memberCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(memberCodes.mobileHash, values.mobileHash), isNull(memberCodes.usedAt)));
    await tx.insert(memberCodes).values(values);
  },

  /** The number's live code, locked: tries on it are counted one after another. */
  async liveCodeForUpdate(tx: Tx, mobileHash: string, maxTries: number) {
    const [row] = await tx
      .select()
      .from(memberCodes)
      .where(
        and(
          eq(memberCodes.mobileHash, mobileHash),
          isNull(memberCodes.usedAt),
          gt(memberCodes.expiresAt, sql`now()`),
          lt(memberCodes.tries, maxTries),
        ),
      )
      .orderBy(desc(memberCodes.id))
      .limit(1)
      .for('update');
    return row;
  },

  async countWrongTry(tx: Tx, id: number) {
    await tx
      .update(memberCodes)
      .set({ tries: sql`${memberCodes.tries} + 1` })
      .where(eq(memberCodes.id, id));
  },

  async useCode(tx: Tx, id: number) {
    await tx
      .update(memberCodes)
      .set({ usedAt: sql`now()` })
      .where(eq(memberCodes.id, id));
  },

  async insertSession(tx: Tx, values: typeof memberSessions.$inferInsert) {
    await tx.insert(memberSessions).values(values);
  },

  async endSession(tx: Tx, jti: string) {
    await tx
      .update(memberSessions)
      .set({ endedAt: sql`now()` })
      .where(and(eq(memberSessions.jti, jti), isNull(memberSessions.endedAt)));
  },

  /** The customer of an open session whose customer has not been erased. */
  async sessionCustomer(tx: Tx, jti: string) {
    const [row] = await tx
      .select({ customerId: memberSessions.customerId })
      .from(memberSessions)
      .innerJoin(customers, eq(customers.id, memberSessions.customerId))
      .where(
        and(
          eq(memberSessions.jti, jti),
          isNull(memberSessions.endedAt),
          gt(memberSessions.expiresAt, sql`now()`),
          isNull(customers.erasedAt),
        ),
      );
    return row?.customerId;
  },

  /** The customer's lots still holding points, soonest to expire first. */
  openLots(tx: Tx, customerId: number) {
    return tx
      .select({ points: pointsLots.remaining, expiresOn: pointsLots.expiresOn })
      .from(pointsLots)
      .where(and(eq(pointsLots.customerId, customerId), gt(pointsLots.remaining, 0)))
      .orderBy(sql`${pointsLots.expiresOn} ASC NULLS LAST`, pointsLots.id);
  },

  /**
   * A page of the customer's ledger, newest first, each row with the balance after it and the
   * invoice of a counter's sale or return; how many rows there are in all.
   */
  async ledgerPage(tx: Tx, customerId: number, limit: number, offset: number) {
    const rows = await tx.execute<{
      date: string;
      ts: string;
      credit: number;
      debit: number;
      balance: string;
      invoice_no: string | null;
      branch: string;
    }>(sql`
      SELECT e.invdate::text AS date, e.ts, e.credit, e.debit, e.balance,
             coalesce(s.invoice_no, r.return_no) AS invoice_no, b.name AS branch
        FROM (SELECT mrn, invdate, ts, credit, debit, branch_id,
                     sum(credit - debit) OVER (ORDER BY invdate, mrn) AS balance
                FROM ${pointsEntries} WHERE customer_id = ${customerId}) e
        JOIN ${branches} b ON b.id = e.branch_id
        LEFT JOIN ${posSales} s ON s.entry_mrn = e.mrn
        LEFT JOIN ${posReturns} r ON r.entry_mrn = e.mrn
       ORDER BY e.invdate DESC, e.mrn DESC
       LIMIT ${limit} OFFSET ${offset}`);
    const [count] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(pointsEntries)
      .where(eq(pointsEntries.customerId, customerId));
    return { rows: rows.rows, total: count!.total };
  },

  async insertOrder(tx: Tx, values: typeof onlineOrders.$inferInsert) {
    await tx.insert(onlineOrders).values(values);
  },

  async orderForUpdate(tx: Tx, orderId: string) {
    const [row] = await tx
      .select()
      .from(onlineOrders)
      .where(eq(onlineOrders.orderId, orderId))
      .for('update');
    return row;
  },

  async settleOrder(
    tx: Tx,
    orderId: string,
    values: { status: 'paid' | 'overpaid'; paymentId: string; installmentId: number | null },
  ) {
    await tx
      .update(onlineOrders)
      .set({ ...values, paidAt: sql`now()` })
      .where(eq(onlineOrders.orderId, orderId));
  },

  /** Orders still unpaid after `minutes` (and younger than a week), oldest first. */
  openOrders(tx: Tx, minutes: number, limit: number) {
    return tx
      .select({ orderId: onlineOrders.orderId })
      .from(onlineOrders)
      .where(
        and(
          eq(onlineOrders.status, 'created'),
          lt(onlineOrders.createdAt, sql`now() - make_interval(mins => ${minutes})`),
          gt(onlineOrders.createdAt, sql`now() - interval '7 days'`),
        ),
      )
      .orderBy(onlineOrders.createdAt)
      .limit(limit);
  },

  /** Notes a webhook event; false when it was seen before (a repeat delivery). */
  /** Notes a second payment of a settled order; false when it was noted before. */
  async noteExtraPayment(
    tx: Tx,
    values: { paymentId: string; orderId: string; amountPaise: number },
  ) {
    const rows = await tx
      .insert(onlineExtraPayments)
      .values(values)
      .onConflictDoNothing()
      .returning({ paymentId: onlineExtraPayments.paymentId });
    return rows.length === 1;
  },

  async firstSeen(tx: Tx, eventId: string) {
    const rows = await tx
      .insert(gatewayEvents)
      .values({ eventId })
      .onConflictDoNothing()
      .returning({ eventId: gatewayEvents.eventId });
    return rows.length === 1;
  },
};
