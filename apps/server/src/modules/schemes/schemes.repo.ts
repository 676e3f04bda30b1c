import { and, asc, desc, eq, gte, inArray, lte, ne, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { graceDaysOf, IMPORTED_MODE, PAYMENT_MODES } from '@kanak/contract';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import { namesIn, withoutNaming, type Naming } from '../../lib/naming.js';
import { graceDaysSql, overdueSql, planGracesSql, type PlanGrace } from './schemes.due.js';
import {
  collectionsByDay,
  customers,
  receiptCounter,
  schemeInstallments,
  schemePlans,
  schemes,
} from '../../db/schema.js';

export type SchemeRow = typeof schemes.$inferSelect;
export type InstallmentRow = typeof schemeInstallments.$inferSelect;

/** An Active scheme as the counter reads it (see activeForCustomer). */
export interface ActiveSchemeRow extends Record<string, unknown> {
  id: number;
  startdt: string;
  matdt: string;
  amount: number;
  installments: number;
  paid: number;
  next_due: string | null;
  plan_code: string | null;
  plan_name: string | null;
  plan_kind: string | null;
  overdue: number;
  /** The months (YYYY-MM) its installments are for. */
  periods: string[];
}

export interface SummaryFilter {
  statuses: string[];
  from: string;
  to: string;
  mobileno: string;
}

type Column<T> = AnyPgColumn<{ data: T; notNull: true }>;

/** A summary row as the screen reads it, from schemes or from a page cut from them. */
const summaryRow = (source: {
  id: Column<number>;
  startdt: Column<string>;
  amount: Column<number>;
  status: Column<string>;
}) => ({
  schemeid: source.id,
  custname: customers.custname,
  // An erased customer has no mobile number.
  mobileno: sql<string>`coalesce(${customers.mobileno}, '')`,
  startdt: source.startdt,
  amount: source.amount,
  status: source.status,
});

/**
 * The summary's filter: statuses, start dates (inclusive) and, if given, the customer of one
 * mobile number (looked up once, so that the totals need not join customers).
 */
const summaryWhere = (filter: SummaryFilter) =>
  and(
    inArray(schemes.status, filter.statuses),
    gte(schemes.startdt, filter.from),
    lte(schemes.startdt, filter.to),
    filter.mobileno
      ? eq(
          schemes.customerId,
          sql`(SELECT ${customers.id} FROM ${customers} WHERE ${customers.mobileno} = ${filter.mobileno})`,
        )
      : undefined,
  );

/** A summary row as read (the service answers its status as `matyn`). */
export interface SummaryRow {
  schemeid: number;
  custname: string;
  mobileno: string;
  startdt: string;
  amount: number;
  status: string;
}

/**
 * The Scheme Summary screen's two reads (a page, and the whole filter's count and amount),
 * their text written once per kind of filter: the screen asks with every page turned, and
 * building the queries anew cost more than running them. The statuses are our own codes,
 * written into the text; the dates (and the mobile number) are the values, so each read is
 * planned with its own dates (unnamed statements).
 */
interface SummaryStatements {
  /** $1 from, $2 to, [$3 mobile,] then the page's limit and offset. */
  rows: Statement;
  totals: Statement;
}
const summaryTexts = new Map<string, SummaryStatements>();

function summaryStatements(filter: SummaryFilter) {
  const byMobile = filter.mobileno !== '';
  const key = `${filter.statuses.join(',')}/${byMobile}`;
  let statements = summaryTexts.get(key);
  if (!statements) {
    if (!filter.statuses.every((status) => /^[a-z]$/.test(status)))
      throw new Error(`not a scheme status: ${filter.statuses.join(', ')}`);
    const statuses = filter.statuses.map((status) => `'${status}'`).join(', ');
    const customer = byMobile
      ? ' AND customer_id = (SELECT id FROM customers WHERE mobileno = $3)'
      : '';
    const [limit, offset] = byMobile ? ['$4', '$5'] : ['$3', '$4'];
    statements = {
      rows: {
        name: '',
        text: `SELECT page.id AS schemeid, c.custname, coalesce(c.mobileno, '') AS mobileno,
                      page.startdt, page.amount, page.status
                 FROM (SELECT id, customer_id, startdt, amount, status FROM schemes
                        WHERE status IN (${statuses}) AND startdt >= $1 AND startdt <= $2${customer}
                        ORDER BY startdt, id LIMIT ${limit} OFFSET ${offset}) page
                 JOIN customers c ON c.id = page.customer_id
                ORDER BY page.startdt, page.id`,
      },
      totals: {
        name: '',
        text: byMobile
          ? `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::bigint AS total FROM schemes
              WHERE status IN (${statuses}) AND startdt >= $1 AND startdt <= $2${customer}`
          : `SELECT coalesce(sum(schemes), 0)::int AS count, coalesce(sum(amount), 0)::bigint AS total
               FROM schemes_by_start
              WHERE status IN (${statuses}) AND startdt >= $1 AND startdt <= $2`,
      },
    };
    summaryTexts.set(key, statements);
  }
  return {
    ...statements,
    values: byMobile ? [filter.from, filter.to, filter.mobileno] : [filter.from, filter.to],
  };
}

export const schemesRepo = {
  /** The customer's schemes, newest first; cancelled ones are kept but not listed. */
  listForCustomer(tx: Tx, customerId: number) {
    return tx
      .select({
        scheme: schemes,
        // Spelled out: in a one-table select, drizzle renders ${schemes.id} as a bare "id",
        // which inside this subquery would mean scheme_installments.id.
        // Kept by a trigger on scheme_installments, equal to their count.
        paid: schemes.paid,
      })
      .from(schemes)
      .where(and(eq(schemes.customerId, customerId), ne(schemes.status, 'x')))
      .orderBy(desc(schemes.id));
  },

  /**
   * The customer's Active schemes, newest first, for the counter: their plan, the months their
   * installments are for, and how many installments are overdue on `asOf` as the overdue report
   * counts them (none once the scheme has matured: it can no longer be paid).
   */
  async activeForCustomer(tx: Tx, customerId: number, asOf: string) {
    const plans = (await tx.execute<PlanGrace>(planGracesSql)).rows;
    const overdue = overdueSql(asOf, plans);
    const result = await tx.execute<ActiveSchemeRow>(sql`
      SELECT s.id, s.startdt, s.matdt, s.amount, s.installments, s.paid, s.next_due,
             p.code AS plan_code, p.name AS plan_name, p.kind AS plan_kind,
             CASE WHEN ${overdue.isOverdue} THEN ${overdue.installments} ELSE 0 END AS overdue,
             coalesce((SELECT array_agg(i.period ORDER BY i.period) FROM scheme_installments i
                        WHERE i.scheme_id = s.id), '{}') AS periods
        FROM schemes s LEFT JOIN scheme_plans p ON p.id = s.plan_id
       WHERE s.customer_id = ${customerId} AND s.status = 'a'
       ORDER BY s.id DESC`);
    return result.rows;
  },

  /** The grace of a scheme on `planId`: its plan's, or without a plan the default. */
  async graceDays(tx: Tx, planId: number | null) {
    if (planId === null) return graceDaysOf(undefined);
    const [plan] = await tx
      .select({ graceDays: schemePlans.graceDays })
      .from(schemePlans)
      .where(eq(schemePlans.id, planId));
    return graceDaysOf(plan);
  },

  async latestForCustomer(tx: Tx, customerId: number) {
    const [row] = await tx
      .select()
      .from(schemes)
      .where(and(eq(schemes.customerId, customerId), ne(schemes.status, 'x')))
      .orderBy(desc(schemes.id))
      .limit(1);
    return row;
  },

  async insert(tx: Tx, values: typeof schemes.$inferInsert) {
    const [row] = await tx.insert(schemes).values(values).returning();
    return row!;
  },

  async find(tx: Tx, id: number, options: { forUpdate?: boolean } = {}) {
    const query = tx.select().from(schemes).where(eq(schemes.id, id));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  async update(tx: Tx, id: number, values: Partial<typeof schemes.$inferInsert>) {
    const [row] = await tx.update(schemes).set(values).where(eq(schemes.id, id)).returning();
    return row!;
  },

  installments(tx: Tx, schemeId: number) {
    return tx
      .select()
      .from(schemeInstallments)
      .where(eq(schemeInstallments.schemeId, schemeId))
      .orderBy(asc(schemeInstallments.paidOn), asc(schemeInstallments.id));
  },

  /**
   * The branch's next receipt number. The branch's counter row (made at its first receipt)
   * stays locked until commit: another installment at the same branch waits, and a rolled-back
   * one gives its number back, so the branch's numbers have no gaps. Other branches' counters
   * are other rows, so branches never wait for each other.
   */
  async nextReceiptNo(tx: Tx, branchId: number) {
    const [row] = await tx
      .insert(receiptCounter)
      .values({ branchId, lastNo: 1 })
      .onConflictDoUpdate({
        target: receiptCounter.branchId,
        set: { lastNo: sql`${receiptCounter.lastNo} + 1` },
      })
      .returning({ no: receiptCounter.lastNo });
    return row!.no;
  },

  async installmentById(tx: Tx, id: number) {
    const [row] = await tx.select().from(schemeInstallments).where(eq(schemeInstallments.id, id));
    return row;
  },

  async insertInstallment(tx: Tx, values: typeof schemeInstallments.$inferInsert) {
    const [row] = await tx.insert(schemeInstallments).values(values).returning();
    return row!;
  },

  /** Every scheme of a customer, cancelled ones too, for the customer's copy of their data. */
  allForCustomer(tx: Tx, customerId: number) {
    return tx
      .select()
      .from(schemes)
      .where(eq(schemes.customerId, customerId))
      .orderBy(asc(schemes.id));
  },

  /** An erasure: the notes staff typed on the customer's installments become `replacement`. */
  async eraseNarrations(tx: Tx, customerId: number, replacement: string) {
    await tx
      .update(schemeInstallments)
      .set({ narration: replacement })
      .where(
        and(
          ne(schemeInstallments.narration, ''),
          inArray(
            schemeInstallments.schemeId,
            tx.select({ id: schemes.id }).from(schemes).where(eq(schemes.customerId, customerId)),
          ),
        ),
      );
  },

  /**
   * An erasure, in other customers' installments: where a narration, or a reference typed at
   * the counter (a UPI id, a cheque's drawer), names the erased customer, the mention becomes
   * `replacement`. Answers the installments changed and their schemes.
   */
  async eraseNamingInOthers(tx: Tx, customerId: number, naming: Naming, replacement: string) {
    const i = schemeInstallments;
    // The counter's modes: their references are typed by staff; the gateway's are its own ids.
    const typed = inArray(i.mode, [...PAYMENT_MODES]);
    return tx
      .update(i)
      .set({
        narration: withoutNaming(i.narration, naming, replacement),
        reference: sql`CASE WHEN ${typed} THEN ${withoutNaming(i.reference, naming, replacement)}
          ELSE ${i.reference} END`,
      })
      .from(schemes)
      .where(
        and(
          eq(schemes.id, i.schemeId),
          ne(schemes.customerId, customerId),
          or(
            and(ne(i.narration, ''), namesIn(i.narration, naming)),
            and(typed, ne(i.reference, ''), namesIn(i.reference, naming)),
          ),
        ),
      )
      .returning({ id: i.id, schemeId: i.schemeId });
  },

  /**
   * The installments paid on the days [from, to] (one branch's, or all), in the cash book's
   * order, a batch of `limit` after the key `after`: the accountant's receipts, with the
   * customer each was paid for.
   */
  installmentsForBooks(
    tx: Tx,
    range: { from: string; to: string; branchId?: number | undefined },
    after: { paidOn: string; createdAt: string; id: number } | undefined,
    limit: number,
  ) {
    const i = schemeInstallments;
    return tx
      .select({
        id: i.id,
        schemeId: i.schemeId,
        branchId: i.branchId,
        receipt: i.receipt,
        paidOn: i.paidOn,
        period: i.period,
        amount: i.amount,
        mode: i.mode,
        reference: i.reference,
        // As text, to the microsecond: the next batch starts exactly after this row.
        createdAt: sql<string>`${i.createdAt}::text`,
        custname: customers.custname,
        mobileno: sql<string>`coalesce(${customers.mobileno}, '')`,
      })
      .from(i)
      .innerJoin(schemes, eq(schemes.id, i.schemeId))
      .innerJoin(customers, eq(customers.id, schemes.customerId))
      .where(
        and(
          gte(i.paidOn, range.from),
          lte(i.paidOn, range.to),
          // Booked in the other software's accounts, where they were paid.
          ne(i.mode, IMPORTED_MODE),
          range.branchId === undefined ? undefined : eq(i.branchId, range.branchId),
          after === undefined
            ? undefined
            : sql`(${i.paidOn}, ${i.createdAt}, ${i.id}) > (${after.paidOn}::date, ${after.createdAt}::timestamptz, ${after.id})`,
        ),
      )
      .orderBy(asc(i.paidOn), asc(i.createdAt), asc(i.id))
      .limit(limit);
  },

  /**
   * Schemes closed on the days [from, to] with a bonus (one branch's, where they were started,
   * or all): the bonus the shop adds to the customer's advance.
   */
  closingsForBooks(tx: Tx, range: { from: string; to: string; branchId?: number | undefined }) {
    return tx
      .select({
        id: schemes.id,
        branchId: schemes.branchId,
        closedOn: sql<string>`${schemes.closedOn}`,
        bonus: sql<number>`${schemes.bonus}`,
        custname: customers.custname,
        mobileno: sql<string>`coalesce(${customers.mobileno}, '')`,
      })
      .from(schemes)
      .innerJoin(customers, eq(customers.id, schemes.customerId))
      .where(
        and(
          eq(schemes.status, 'm'),
          gte(schemes.closedOn, range.from),
          lte(schemes.closedOn, range.to),
          sql`${schemes.bonus} > 0`,
          range.branchId === undefined ? undefined : eq(schemes.branchId, range.branchId),
        ),
      )
      .orderBy(asc(schemes.closedOn), asc(schemes.id));
  },

  /** The installments of the given schemes, by scheme and date. */
  installmentsOf(tx: Tx, schemeIds: number[]) {
    if (schemeIds.length === 0) return Promise.resolve([]);
    return tx
      .select()
      .from(schemeInstallments)
      .where(inArray(schemeInstallments.schemeId, schemeIds))
      .orderBy(
        asc(schemeInstallments.schemeId),
        asc(schemeInstallments.paidOn),
        asc(schemeInstallments.id),
      );
  },

  /** A scheme that is still running (Inactive or Active), if any: erasure waits for it. */
  async openForCustomer(tx: Tx, customerId: number) {
    const [row] = await tx
      .select({ id: schemes.id, status: schemes.status })
      .from(schemes)
      .where(and(eq(schemes.customerId, customerId), inArray(schemes.status, ['n', 'a'])))
      .orderBy(asc(schemes.id))
      .limit(1);
    return row;
  },

  /**
   * Active schemes after `afterId`, a batch in id order, each with its installments paid so
   * far and its grace: what the daily reminders judge (due, overdue, matured).
   */
  activeWithPaid(tx: Tx, afterId: number, limit: number) {
    return tx
      .select({
        id: schemes.id,
        customerId: schemes.customerId,
        branchId: schemes.branchId,
        startdt: schemes.startdt,
        matdt: schemes.matdt,
        amount: schemes.amount,
        installments: schemes.installments,
        // Kept by a trigger on scheme_installments, equal to their count.
        paid: schemes.paid,
        graceDays: graceDaysSql(sql`${schemePlans.graceDays}`).mapWith(Number),
      })
      .from(schemes)
      .leftJoin(schemePlans, eq(schemePlans.id, schemes.planId))
      .where(and(eq(schemes.status, 'a'), sql`${schemes.id} > ${afterId}`))
      .orderBy(asc(schemes.id))
      .limit(limit);
  },

  /** The summary's filter's first `limit` rows, in start-date order. */
  summary(tx: Tx, filter: SummaryFilter, limit: number) {
    return tx
      .select(summaryRow(schemes))
      .from(schemes)
      .innerJoin(customers, eq(customers.id, schemes.customerId))
      .where(summaryWhere(filter))
      .orderBy(asc(schemes.startdt), asc(schemes.id))
      .limit(limit);
  },

  /**
   * One page of the summary's rows. The page is cut from schemes_summary_idx alone, in its
   * own order, and only its rows then look up their customer: a late page skips the rows
   * before it in the index without joining them (page 201 of a month: 13 ms, not 150).
   */
  async summaryPage(tx: Tx, filter: SummaryFilter, page: { limit: number; offset: number }) {
    const { rows, values } = summaryStatements(filter);
    return runStatement<SummaryRow>(tx, rows, [...values, page.limit, page.offset]);
  },

  /**
   * How many rows the whole filter holds and their amount. Without a mobile number they are
   * added up from schemes_by_start, a few rows per start date and status however many schemes
   * started then; one customer's schemes are few and counted off the index (no heap visit).
   */
  async summaryTotals(tx: Tx, filter: SummaryFilter) {
    const { totals, values } = summaryStatements(filter);
    const [row] = await runStatement<{ count: number; total: number }>(tx, totals, values);
    return { count: Number(row!.count), total: Number(row!.total) };
  },

  /**
   * The installments dated `day` in every branch, and their rupees, by mode: from the daily
   * totals the installments' trigger keeps (a few rows, however many installments).
   */
  async collectionsOfDay(tx: Tx, day: string) {
    const rows = await tx
      .select({
        mode: collectionsByDay.mode,
        installments: sql<number>`sum(${collectionsByDay.installments})::int`,
        rupees: sql<number>`sum(${collectionsByDay.amount})::bigint`,
      })
      .from(collectionsByDay)
      .where(eq(collectionsByDay.day, day))
      .groupBy(collectionsByDay.mode);
    return rows.map((row) => ({
      mode: row.mode,
      installments: Number(row.installments),
      rupees: Number(row.rupees),
    }));
  },
};
export type SchemesRepo = typeof schemesRepo;
