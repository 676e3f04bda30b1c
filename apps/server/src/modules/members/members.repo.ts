import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
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
  posReturns,
  posSales,
  schemeInstallments,
  schemePlans,
  schemes,
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

  /**
   * Deletes codes made before `codesBefore`, sessions ended or expired before
   * `sessionsBefore`, and webhook deliveries received before `eventsBefore`; what each deleted.
   */
  async purge(tx: Tx, before: { codesBefore: Date; sessionsBefore: Date; eventsBefore: Date }) {
    const codes = await tx
      .delete(memberCodes)
      .where(lt(memberCodes.createdAt, before.codesBefore))
      .returning({ id: memberCodes.id });
    const sessions = await tx
      .delete(memberSessions)
      .where(
        or(
          lt(memberSessions.expiresAt, before.sessionsBefore),
          lt(memberSessions.endedAt, before.sessionsBefore),
        ),
      )
      .returning({ jti: memberSessions.jti });
    const events = await tx
      .delete(gatewayEvents)
      .where(lt(gatewayEvents.receivedAt, before.eventsBefore))
      .returning({ eventId: gatewayEvents.eventId });
    return { codes: codes.length, sessions: sessions.length, gatewayEvents: events.length };
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

  /**
   * The customer's schemes (not cancelled), newest first, each with its plan (none: the
   * standard scheme) and its installments in the order paid, a row for each installment (one
   * with none for a scheme without any): the home page's schemes in one read.
   */
  schemesOf(tx: Tx, customerId: number) {
    return tx
      .select({ scheme: schemes, plan: schemePlans, installment: schemeInstallments })
      .from(schemes)
      .leftJoin(schemePlans, eq(schemePlans.id, schemes.planId))
      .leftJoin(schemeInstallments, eq(schemeInstallments.schemeId, schemes.id))
      .where(and(eq(schemes.customerId, customerId), ne(schemes.status, 'x')))
      .orderBy(desc(schemes.id), asc(schemeInstallments.paidOn), asc(schemeInstallments.id));
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

  async findOrder(tx: Tx, orderId: string) {
    const [row] = await tx.select().from(onlineOrders).where(eq(onlineOrders.orderId, orderId));
    return row;
  },

  async orderForUpdate(tx: Tx, orderId: string) {
    const [row] = await tx
      .select()
      .from(onlineOrders)
      .where(eq(onlineOrders.orderId, orderId))
      .for('update');
    return row;
  },

  /**
   * The customer's open order for the installment, made within the last `hours`: pressing Pay
   * again pays the same order rather than starting another.
   */
  async openOrderFor(
    tx: Tx,
    values: { customerId: number; schemeId: number; period: string; amountPaise: number },
    hours: number,
  ) {
    const [row] = await tx
      .select()
      .from(onlineOrders)
      .where(
        and(
          eq(onlineOrders.customerId, values.customerId),
          eq(onlineOrders.status, 'created'),
          gt(onlineOrders.createdAt, sql`now() - make_interval(hours => ${hours})`),
          eq(onlineOrders.schemeId, values.schemeId),
          eq(onlineOrders.period, values.period),
          eq(onlineOrders.amountPaise, values.amountPaise),
        ),
      )
      .orderBy(desc(onlineOrders.createdAt))
      .limit(1);
    return row;
  },

  /** How many of the customer's orders made within the last `hours` are still unpaid. */
  async openOrderCount(tx: Tx, customerId: number, hours: number) {
    const [row] = await tx
      .select({ open: sql<number>`count(*)::int` })
      .from(onlineOrders)
      .where(
        and(
          eq(onlineOrders.customerId, customerId),
          eq(onlineOrders.status, 'created'),
          gt(onlineOrders.createdAt, sql`now() - make_interval(hours => ${hours})`),
        ),
      );
    return row!.open;
  },

  /**
   * Holds the customer's row until the transaction ends: two orders started at once are
   * counted and written one after the other.
   */
  async lockCustomer(tx: Tx, customerId: number) {
    await tx
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.id, customerId))
      .for('update');
  },

  async settleOrder(
    tx: Tx,
    orderId: string,
    values: {
      status: 'paid' | 'overpaid' | 'mismatch';
      paymentId: string;
      installmentId: number | null;
      receivedPaise?: number;
    },
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

  /**
   * Payments that bought no installment and are not refunded yet, newest first: orders whose
   * month was paid at the counter meanwhile, payments of another amount than their order's, and
   * second payments of a settled order. Of the branch's schemes only, when one is given.
   */
  async refundsDue(tx: Tx, branchId: number | undefined, limit: number) {
    const due = await tx.execute<{
      payment_id: string;
      order_id: string;
      scheme_id: number;
      amount_paise: string;
      expected_paise: string;
      period: string;
      seen_at: Date | string;
      reason: 'monthPaid' | 'paidTwice' | 'amountMismatch';
      custname: string;
      mobileno: string | null;
      branch: string;
    }>(sql`
      SELECT d.*, c.custname, c.mobileno, b.code AS branch
        FROM (SELECT o.payment_id, o.order_id, o.scheme_id,
                     coalesce(o.received_paise, o.amount_paise) AS amount_paise,
                     o.amount_paise AS expected_paise, o.period, o.paid_at AS seen_at,
                     CASE o.status WHEN 'mismatch' THEN 'amountMismatch' ELSE 'monthPaid' END
                       AS reason
                FROM ${onlineOrders} o
               WHERE o.status IN ('overpaid', 'mismatch') AND o.refunded_at IS NULL
              UNION ALL
              SELECT e.payment_id, e.order_id, o.scheme_id, e.amount_paise,
                     o.amount_paise, o.period, e.created_at, 'paidTwice'
                FROM ${onlineExtraPayments} e
                JOIN ${onlineOrders} o ON o.order_id = e.order_id
               WHERE e.refunded_at IS NULL) d
        JOIN ${schemes} s ON s.id = d.scheme_id
        JOIN ${customers} c ON c.id = s.customer_id
        JOIN ${branches} b ON b.id = s.branch_id
       WHERE ${branchId === undefined ? sql`TRUE` : sql`s.branch_id = ${branchId}`}
       ORDER BY d.seen_at DESC, d.payment_id
       LIMIT ${limit}`);
    return due.rows;
  },

  /**
   * The payment waiting for a refund, its row locked: an overpaid order's, one of the wrong
   * amount, or a second payment's. Undefined when it is not waiting (refunded already, or
   * unknown).
   */
  async refundForUpdate(tx: Tx, paymentId: string) {
    const [order] = await tx
      .select({
        orderId: onlineOrders.orderId,
        schemeId: onlineOrders.schemeId,
        amountPaise:
          sql<number>`coalesce(${onlineOrders.receivedPaise}, ${onlineOrders.amountPaise})::bigint`.mapWith(
            Number,
          ),
        branchId: schemes.branchId,
      })
      .from(onlineOrders)
      .innerJoin(schemes, eq(schemes.id, onlineOrders.schemeId))
      .where(
        and(
          eq(onlineOrders.paymentId, paymentId),
          inArray(onlineOrders.status, ['overpaid', 'mismatch']),
          isNull(onlineOrders.refundedAt),
        ),
      )
      .for('update', { of: onlineOrders });
    if (order) return { ...order, secondPayment: false };
    const [extra] = await tx
      .select({
        orderId: onlineOrders.orderId,
        schemeId: onlineOrders.schemeId,
        amountPaise: onlineExtraPayments.amountPaise,
        branchId: schemes.branchId,
      })
      .from(onlineExtraPayments)
      .innerJoin(onlineOrders, eq(onlineOrders.orderId, onlineExtraPayments.orderId))
      .innerJoin(schemes, eq(schemes.id, onlineOrders.schemeId))
      .where(
        and(eq(onlineExtraPayments.paymentId, paymentId), isNull(onlineExtraPayments.refundedAt)),
      )
      .for('update', { of: onlineExtraPayments });
    return extra ? { ...extra, secondPayment: true } : undefined;
  },

  async markRefunded(tx: Tx, paymentId: string, secondPayment: boolean, reference: string) {
    const refunded = { refundedAt: sql`now()`, refundReference: reference };
    if (secondPayment) {
      await tx
        .update(onlineExtraPayments)
        .set(refunded)
        .where(eq(onlineExtraPayments.paymentId, paymentId));
    } else {
      await tx.update(onlineOrders).set(refunded).where(eq(onlineOrders.paymentId, paymentId));
    }
  },

  /** Notes a webhook event; false when it was seen before (a repeat delivery). */
  async firstSeen(tx: Tx, eventId: string) {
    const rows = await tx
      .insert(gatewayEvents)
      .values({ eventId })
      .onConflictDoNothing()
      .returning({ eventId: gatewayEvents.eventId });
    return rows.length === 1;
  },
};
