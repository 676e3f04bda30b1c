import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { NoticeStatus } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { noticeTemplates, notices } from '../../db/schema.js';

export type NoticeRow = typeof notices.$inferSelect;
export type NewNotice = Omit<
  typeof notices.$inferInsert,
  'id' | 'attempts' | 'claimedUntil' | 'createdAt' | 'sentAt' | 'providerMessageId'
>;

export interface NoticeFilters {
  status?: NoticeStatus;
  event?: string;
  mobile?: string;
  /** Store dates, `YYYY-MM-DD`, both ends included. */
  from?: string;
  to?: string;
  /** Only this branch's notices (a manager's own); every branch's when absent. */
  branchId?: number;
}

/** A sender's claim on one notice: the attempt it counted is its proof of ownership. */
export interface Claim {
  id: number;
  attempts: number;
}

/** The claim still ours: not taken over by another sender after our lease lapsed. */
const stillClaimed = (claim: Claim) =>
  and(eq(notices.id, claim.id), eq(notices.status, 'queued'), eq(notices.attempts, claim.attempts));

export const noticesRepo = {
  // ---- templates ------------------------------------------------------------------------

  templates(tx: Tx) {
    return tx.select().from(noticeTemplates);
  },

  async findTemplate(tx: Tx, event: string, options: { forUpdate?: boolean } = {}) {
    const query = tx.select().from(noticeTemplates).where(eq(noticeTemplates.event, event));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  async saveTemplate(
    tx: Tx,
    values: { event: string; enabled: boolean; text: string; updatedBy: number },
  ) {
    const [row] = await tx
      .insert(noticeTemplates)
      .values(values)
      .onConflictDoUpdate({
        target: noticeTemplates.event,
        set: {
          enabled: values.enabled,
          text: values.text,
          updatedBy: values.updatedBy,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row!;
  },

  // ---- the outbox -----------------------------------------------------------------------

  /**
   * Writes the notices; a reminder whose dedupe key is already taken is left out (a rerun, or
   * another run at the same moment). Answers the rows written.
   */
  async insertMany(tx: Tx, rows: NewNotice[]) {
    if (rows.length === 0) return [];
    return tx
      .insert(notices)
      .values(rows)
      .onConflictDoNothing()
      .returning({ id: notices.id, status: notices.status });
  },

  /** Which of these dedupe keys are taken already. */
  async takenDedupeKeys(tx: Tx, keys: string[]) {
    if (keys.length === 0) return new Set<string>();
    const rows = await tx
      .select({ key: notices.dedupeKey })
      .from(notices)
      .where(inArray(notices.dedupeKey, keys));
    return new Set(rows.map((row) => row.key!));
  },

  // ---- the sender -----------------------------------------------------------------------

  /**
   * Claims the next due notice: one conditional UPDATE, its row chosen under FOR UPDATE SKIP
   * LOCKED, so two senders never take the same row. The claim lasts `leaseSeconds` and counts
   * an attempt; a claim that lapsed (its sender died) can be taken again.
   */
  async claimNext(tx: Tx, leaseSeconds: number) {
    const result = await tx.execute<{
      id: number;
      event: string;
      customer_id: number;
      mobile: string | null;
      text: string;
      attempts: number;
    }>(sql`
      UPDATE notices SET claimed_until = now() + make_interval(secs => ${leaseSeconds}),
                         attempts = attempts + 1
       WHERE id = (SELECT id FROM notices
                    WHERE status = 'queued' AND not_before <= now()
                      AND (claimed_until IS NULL OR claimed_until < now())
                    ORDER BY not_before, id
                    LIMIT 1
                    FOR UPDATE SKIP LOCKED)
         AND status = 'queued'
      RETURNING id, event, customer_id, mobile, text, attempts`);
    const row = result.rows[0];
    return (
      row && {
        id: Number(row.id),
        event: row.event,
        customerId: row.customer_id,
        mobile: row.mobile,
        text: row.text,
        attempts: row.attempts,
      }
    );
  },

  /** Is any notice due now (a run that stopped on time asks for another)? */
  async anyDue(tx: Tx) {
    const result = await tx.execute(sql`
      SELECT 1 FROM notices
       WHERE status = 'queued' AND not_before <= now()
         AND (claimed_until IS NULL OR claimed_until < now())
       LIMIT 1`);
    return result.rows.length > 0;
  },

  async markSent(tx: Tx, claim: Claim, providerMessageId: string | null) {
    const rows = await tx
      .update(notices)
      .set({
        status: 'sent',
        sentAt: sql`now()`,
        providerMessageId,
        reason: null,
        claimedUntil: null,
      })
      .where(stillClaimed(claim))
      .returning({ id: notices.id });
    return rows.length > 0;
  },

  async markUnsent(tx: Tx, claim: Claim, status: 'failed' | 'skipped', reason: string) {
    const rows = await tx
      .update(notices)
      .set({ status, reason, claimedUntil: null })
      .where(stillClaimed(claim))
      .returning({ id: notices.id });
    return rows.length > 0;
  },

  /** Queued again after a failed attempt, not before `delaySeconds` from now. */
  async retryLater(tx: Tx, claim: Claim, reason: string, delaySeconds: number) {
    const rows = await tx
      .update(notices)
      .set({
        reason,
        claimedUntil: null,
        notBefore: sql`now() + make_interval(secs => ${delaySeconds})`,
      })
      .where(stillClaimed(claim))
      .returning({ id: notices.id });
    return rows.length > 0;
  },

  // ---- the provider's word after sending -------------------------------------------------

  /**
   * What the provider later said of a message it took (the official panel's webhook), on the
   * notice it was sent as: delivered and read keep their earliest moment (read implies
   * delivered); failed marks a notice not yet delivered failed, with why. A status heard again
   * changes nothing. Answers whether the notice changed.
   */
  async recordDelivery(
    tx: Tx,
    report: {
      providerMessageId: string;
      status: 'delivered' | 'read' | 'failed';
      at: Date;
      reason?: string;
    },
  ) {
    const { providerMessageId: id, at } = report;
    const ofMessage = eq(notices.providerMessageId, id);
    const rows =
      report.status === 'failed'
        ? await tx
            .update(notices)
            .set({ status: 'failed', reason: report.reason ?? null })
            .where(and(ofMessage, eq(notices.status, 'sent'), sql`${notices.deliveredAt} IS NULL`))
            .returning({ id: notices.id })
        : await tx
            .update(notices)
            .set({
              deliveredAt: sql`LEAST(${notices.deliveredAt}, ${at})`,
              ...(report.status === 'read' ? { readAt: sql`LEAST(${notices.readAt}, ${at})` } : {}),
            })
            .where(
              and(
                ofMessage,
                report.status === 'read'
                  ? sql`(${notices.readAt} IS NULL OR ${notices.readAt} > ${at})`
                  : sql`(${notices.deliveredAt} IS NULL OR ${notices.deliveredAt} > ${at})`,
              ),
            )
            .returning({ id: notices.id });
    return rows.length > 0;
  },

  // ---- the Delivery Log -----------------------------------------------------------------

  /** One page, newest first, with the branch's code; and how many match, up to `cap`. */
  async page(
    tx: Tx,
    filters: NoticeFilters,
    timeZone: string,
    { limit, offset, cap }: { limit: number; offset: number; cap: number },
  ) {
    const where = whereOf(filters, timeZone);
    const [rows, counted] = await Promise.all([
      tx.execute<Record<string, unknown>>(sql`
        SELECT n.id, n.event, n.mobile, n.text, n.status, n.attempts, n.reason, b.code AS branch,
               n.created_at, n.sent_at
          FROM notices n LEFT JOIN branches b ON b.id = n.branch_id
         WHERE ${where}
         ORDER BY n.created_at DESC, n.id DESC
         LIMIT ${limit} OFFSET ${offset}`),
      tx.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM (SELECT 1 FROM notices n WHERE ${where} LIMIT ${cap}) m`),
    ]);
    return { rows: rows.rows.map(toLogRow), total: counted.rows[0]?.n ?? 0 };
  },

  async findForLog(tx: Tx, id: number) {
    const result = await tx.execute<Record<string, unknown>>(sql`
      SELECT n.id, n.event, n.mobile, n.text, n.status, n.attempts, n.reason, b.code AS branch,
             n.created_at, n.sent_at
        FROM notices n LEFT JOIN branches b ON b.id = n.branch_id
       WHERE n.id = ${id}`);
    return result.rows[0] && toLogRow(result.rows[0]);
  },

  async findForUpdate(tx: Tx, id: number) {
    const [row] = await tx.select().from(notices).where(eq(notices.id, id)).for('update');
    return row;
  },

  /** A failed notice queued again from its first attempt, to go at once. */
  async requeue(tx: Tx, id: number) {
    await tx
      .update(notices)
      .set({
        status: 'queued',
        attempts: 0,
        reason: null,
        notBefore: sql`now()`,
        claimedUntil: null,
      })
      .where(and(eq(notices.id, id), eq(notices.status, 'failed')));
  },

  // ---- for the operators' metrics --------------------------------------------------------

  /**
   * The queue as the sender sees it: the notices still queued, how long the oldest has been
   * queued and how long the oldest due one has been waiting (a reminder queued before the
   * day's hours is not due yet; a retry is due again after its delay), read from the sender's
   * own index of queued rows; and the last 24 hours' notices by status.
   */
  async queueFigures(tx: Tx) {
    const [queue] = (
      await tx.execute<{ queued: number; oldest_queued: number | null; oldest_due: number | null }>(
        sql`SELECT count(*)::int AS queued,
                   extract(epoch FROM now() - min(${notices.createdAt}))::float8 AS oldest_queued,
                   extract(epoch FROM now() - min(${notices.notBefore})
                                               FILTER (WHERE ${notices.notBefore} <= now()))::float8
                     AS oldest_due
              FROM ${notices}
             WHERE ${notices.status} = 'queued'`,
      )
    ).rows;
    const lastDay = await tx
      .select({ status: notices.status, count: sql<number>`count(*)::int` })
      .from(notices)
      .where(sql`${notices.createdAt} > now() - interval '1 day'`)
      .groupBy(notices.status);
    return {
      queued: Number(queue?.queued ?? 0),
      oldestQueuedSeconds: Number(queue?.oldest_queued ?? 0),
      oldestDueSeconds: Number(queue?.oldest_due ?? 0),
      lastDay: lastDay.map((row) => ({ status: row.status, count: Number(row.count) })),
    };
  },

  // ---- a customer's data rights ---------------------------------------------------------

  /** The notices the provider took for the customer, oldest first. */
  sentToCustomer(tx: Tx, customerId: number) {
    return tx
      .select({ event: notices.event, text: notices.text, sentAt: notices.sentAt })
      .from(notices)
      .where(and(eq(notices.customerId, customerId), eq(notices.status, 'sent')))
      .orderBy(asc(notices.sentAt), asc(notices.id));
  },

  /**
   * An erased customer's notices keep when and what kind, not where or what: the mobile number
   * and the text (it holds the name) go, and so does a provider's answer (it may repeat them);
   * those still queued are skipped with `reason`.
   */
  async eraseForCustomer(tx: Tx, customerId: number, reason: string) {
    await tx
      .update(notices)
      .set({
        mobile: null,
        text: '',
        reason: sql`CASE WHEN ${notices.status} = 'queued' THEN ${reason}
                         WHEN ${notices.status} = 'skipped' THEN ${notices.reason} END`,
        status: sql`CASE WHEN ${notices.status} = 'queued' THEN 'skipped' ELSE ${notices.status} END`,
        claimedUntil: null,
      })
      .where(eq(notices.customerId, customerId));
  },
};

export type NoticesRepo = typeof noticesRepo;

function whereOf(filters: NoticeFilters, timeZone: string): SQL {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(sql`n.status = ${filters.status}`);
  if (filters.event) conditions.push(sql`n.event = ${filters.event}`);
  if (filters.mobile) conditions.push(sql`n.mobile = ${filters.mobile}`);
  if (filters.branchId !== undefined) conditions.push(sql`n.branch_id = ${filters.branchId}`);
  // Whole store days: from midnight of `from` to midnight after `to`, in the store's zone.
  if (filters.from)
    conditions.push(
      sql`n.created_at >= (${filters.from}::date)::timestamp AT TIME ZONE ${timeZone}`,
    );
  if (filters.to)
    conditions.push(
      sql`n.created_at < (${filters.to}::date + 1)::timestamp AT TIME ZONE ${timeZone}`,
    );
  return conditions.length === 0 ? sql`TRUE` : sql.join(conditions, sql` AND `);
}

export interface LogRow {
  id: number;
  event: string;
  mobile: string | null;
  text: string;
  status: NoticeStatus;
  attempts: number;
  reason: string | null;
  branch: string | null;
  createdAt: string;
  sentAt: string | null;
}

function toLogRow(row: Record<string, unknown>): LogRow {
  const iso = (value: unknown) => (value ? new Date(value as string | Date).toISOString() : null);
  return {
    id: Number(row.id),
    event: row.event as string,
    mobile: (row.mobile as string | null) ?? null,
    text: row.text as string,
    status: row.status as NoticeStatus,
    attempts: Number(row.attempts),
    reason: (row.reason as string | null) ?? null,
    branch: (row.branch as string | null) ?? null,
    createdAt: iso(row.created_at)!,
    sentAt: iso(row.sent_at),
  };
}
