import { sql, type SQL } from 'drizzle-orm';
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_CSV_FILE_NAME,
  AUDIT_ENTITY_LABELS,
  CSV_BOM,
  LIMITS,
  auditActionLabel,
  auditChangeLine,
  auditChanges,
  counterWho,
  csvLine,
  datedFileName,
  formatAuditTime,
  todayIn,
  type AuditEntity,
  type AuditEntry,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import type { Reader, Reads } from '../../db/reads.js';
import { beforeAndAfter } from '../../lib/audit.js';

export type AuditService = ReturnType<typeof createAuditService>;

export interface AuditFilters {
  user?: string;
  entity?: string;
  mobile?: string;
  /** Store dates, `YYYY-MM-DD`, both ends included. */
  from?: string;
  to?: string;
  /** Only the changes made in this branch (a manager's own); every branch's when absent. */
  branchId?: number;
}

interface Row extends Record<string, unknown> {
  id: number;
  at: Date | string;
  username: string | null;
  name: string | null;
  entity: string;
  entity_id: string | null;
  branch: string | null;
  /** A counter's postings: the key's label ('' when the row predates labels); else null. */
  counter: string | null;
  action: string;
  mobile: string | null;
  detail: unknown;
}

/**
 * The Audit screen's reads: the newest changes first, filtered by who, what, the customer's
 * mobile number and the store's dates. Each filter has an index in (at, id) order, so a page
 * reads only its own rows however large the log grows; the count stops at a cap.
 */
export function createAuditService({ timeZone, reads }: { timeZone: string; reads: Reads }) {
  function where(filters: AuditFilters): SQL {
    const conditions: SQL[] = [];
    if (filters.user)
      conditions.push(
        sql`a.user_id = (SELECT id FROM users WHERE lower(username) = lower(${filters.user}))`,
      );
    if (filters.entity) conditions.push(sql`a.entity = ${filters.entity}`);
    if (filters.mobile) conditions.push(sql`a.mobile = ${filters.mobile}`);
    if (filters.branchId !== undefined) conditions.push(sql`a.branch_id = ${filters.branchId}`);
    // Whole store days: from midnight of `from` to midnight after `to`, in the store's zone.
    if (filters.from)
      conditions.push(sql`a.at >= (${filters.from}::date)::timestamp AT TIME ZONE ${timeZone}`);
    if (filters.to)
      conditions.push(sql`a.at < (${filters.to}::date + 1)::timestamp AT TIME ZONE ${timeZone}`);
    return conditions.length === 0 ? sql`TRUE` : sql.join(conditions, sql` AND `);
  }

  async function rows(from: Db, filters: AuditFilters, limit: number, offset: number) {
    const result = await from.execute<Row>(sql`
      SELECT a.id, a.at, u.username, u.name, b.code AS branch,
        -- A counter's posting has no staff member: the key's label says who.
        CASE WHEN a.user_id IS NULL AND a.action LIKE 'pos.%'
          THEN coalesce(a.detail->>'counter', '') END AS counter,
        a.entity, a.entity_id, a.action, a.mobile, a.detail
      FROM audit_log a
        LEFT JOIN users u ON u.id = a.user_id
        LEFT JOIN branches b ON b.id = a.branch_id
      WHERE ${where(filters)}
      ORDER BY a.at DESC, a.id DESC
      LIMIT ${limit} OFFSET ${offset}`);
    return result.rows.map(toEntry);
  }

  return {
    /**
     * One page of changes and how many match (counted up to the cap); read from the reports
     * replica when it may answer `reader`.
     */
    page: (reader: Reader, filters: AuditFilters, page: number) =>
      reads.run(reader, ({ db }) => pageOf(db, filters, page)),

    /** The CSV's file name, with the dates it covers (today when none are asked). */
    csvFileName: (filters: AuditFilters) =>
      datedFileName(AUDIT_CSV_FILE_NAME.replace(/\.csv$/, ''), filters, todayIn(timeZone), '_'),

    /**
     * The filtered changes as CSV (UTF-8 with its byte-order mark), newest first, capped; read
     * from the reports replica when it may answer `reader`.
     */
    csv: (reader: Reader, filters: AuditFilters) =>
      reads.run(reader, ({ db }) => csvOf(db, filters)),
  };

  async function pageOf(from: Db, filters: AuditFilters, page: number) {
    const size = LIMITS.auditPageSize;
    const [data, counted] = await Promise.all([
      rows(from, filters, size, (page - 1) * size),
      from.execute<{ n: number }>(sql`
          SELECT count(*)::integer AS n FROM (
            SELECT 1 FROM audit_log a WHERE ${where(filters)} LIMIT ${LIMITS.auditCountCap + 1}
          ) matching`),
    ]);
    const n = counted.rows[0]?.n ?? 0;
    return {
      data,
      total: Math.min(n, LIMITS.auditCountCap),
      totalCapped: n > LIMITS.auditCountCap,
    };
  }

  async function csvOf(from: Db, filters: AuditFilters): Promise<string> {
    const entries = await rows(from, filters, LIMITS.auditCsvMaxRows, 0);
    let text = CSV_BOM + csvLine([...AUDIT_CSV_COLUMNS]);
    // In the screen's words: a manager reads this file, not the code.
    const side = (values: Record<string, unknown> | null) =>
      auditChanges(values, null).map(auditChangeLine).join('; ');
    for (const entry of entries) {
      text += csvLine([
        formatAuditTime(entry.at, timeZone),
        entry.username,
        entry.name,
        entry.branch,
        AUDIT_ENTITY_LABELS[entry.entity as AuditEntity] ?? entry.entity,
        entry.entityId,
        auditActionLabel(entry.action),
        entry.mobile,
        side(entry.before),
        side(entry.after),
      ]);
    }
    return text;
  }
}

function toEntry(row: Row): AuditEntry {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    username: row.username,
    name:
      row.name || row.username || (row.counter === null ? null : counterWho(row.counter || null)),
    branch: row.branch,
    entity: row.entity,
    entityId: row.entity_id,
    action: row.action,
    mobile: row.mobile,
    ...beforeAndAfter(row.detail),
  };
}
