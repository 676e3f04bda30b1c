import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { AUDIT_HIDDEN, PAN_PATTERN } from '@kanak/contract';
import { auditLog } from '../db/schema.js';
import { runStatement, type Statement, type Tx } from '../db/client.js';
import type { Naming } from './naming.js';

type Values = Record<string, unknown>;

export interface AuditEntry {
  userId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  /** The changed fields' values before the change (none for a creation). */
  before?: Values | null;
  /** Their values after it (none for a deletion). */
  after?: Values | null;
  /** Older form: facts about the change, shown as its "after" side. */
  detail?: Values;
  /** The customer's mobile number when the change concerns a customer. */
  mobile?: string | null;
  /**
   * Where the change was made when no staff member makes it (a counter's key posts for its
   * branch): that branch's manager sees it on their Audit Trail. A staff member's change is
   * filed under their own branch.
   */
  branchId?: number | null;
}

/**
 * Field names whose values never reach the audit log or its screen: Aadhaar and PAN numbers,
 * passwords and their hashes, session and messaging tokens, API keys, secrets, tickets.
 */
const SECRET_FIELD =
  /aadhaar|aadhar|^pan$|pan_?(no|number)|password|passwd|hash|token|secret|api_?key|^key$|ticket|jti|sealed|otp/i;
/**
 * Values that look like an Aadhaar number, a PAN or a JWT, whatever the field is called. An
 * Aadhaar number stands apart from letters and digits: twelve digits inside an identifier (an
 * image's `img_…0c70a499626615260b7…`) are not one.
 */
const SECRET_VALUE = [
  /(^|[^\da-z])\d{4}\s?\d{4}\s?\d{4}([^\da-z]|$)/i,
  new RegExp(PAN_PATTERN.source.slice(1, -1), 'i'),
  /eyJ[\w-]+\.[\w-]+\./,
];

function redactValue(value: unknown): unknown {
  if (typeof value === 'string')
    return SECRET_VALUE.some((pattern) => pattern.test(value)) ? AUDIT_HIDDEN : value;
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') return redactAuditValues(value as Values);
  return value;
}

/**
 * The values with every secret replaced by "(hidden)": that the field changed stays visible,
 * what it holds does not. Applied when a row is written and again when it is read, so a row
 * written by older code or by hand cannot show a secret either.
 */
export function redactAuditValues(values: Values): Values;
export function redactAuditValues(values: Values | null | undefined): Values | null;
export function redactAuditValues(values: Values | null | undefined): Values | null {
  if (!values) return null;
  return Object.fromEntries(
    Object.entries(values).map(([field, value]) => [
      field,
      // A yes or no ("the token was ended") tells nothing secret; any other value is hidden.
      SECRET_FIELD.test(field) &&
      value !== null &&
      value !== undefined &&
      value !== '' &&
      typeof value !== 'boolean'
        ? AUDIT_HIDDEN
        : redactValue(value),
    ]),
  );
}

/**
 * The row's stored detail as "before" and "after" values for the screen. Rows keep
 * `{ before, after }`; older rows kept `{ from, to }` or plain facts (shown as "after").
 */
export function beforeAndAfter(detail: unknown): { before: Values | null; after: Values | null } {
  if (!detail || typeof detail !== 'object' || Array.isArray(detail))
    return { before: null, after: null };
  const values = detail as Values;
  const side = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? redactAuditValues(value as Values)
      : null;
  if ('before' in values || 'after' in values)
    return { before: side(values.before), after: side(values.after) };
  if ('from' in values && 'to' in values)
    return { before: side(values.from), after: side(values.to) };
  return { before: null, after: redactAuditValues(values) };
}

/** Writes the audit row inside the caller's transaction, so the change and its record agree. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const detail = auditDetail(entry);
  await runStatement(tx, INSERT_AUDIT, [
    entry.userId,
    entry.branchId ?? null,
    entry.action,
    entry.entity,
    entry.entityId == null ? null : String(entry.entityId),
    detail === null ? null : JSON.stringify(detail),
    entry.mobile ?? null,
  ]);
}

/**
 * Writes several audit rows in one statement (a batch of imported rows), in the caller's
 * transaction: each column one array parameter, so a batch of thousands is neither a query
 * built value by value nor a plan with a branch look-up per row.
 */
export async function recordAudits(tx: Tx, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const column = <T>(pick: (entry: AuditEntry) => T) => entries.map(pick);
  await runStatement(tx, INSERT_AUDITS, [
    column((entry) => entry.userId),
    column((entry) => entry.branchId ?? null),
    column((entry) => entry.action),
    column((entry) => entry.entity),
    column((entry) => (entry.entityId == null ? null : String(entry.entityId))),
    column((entry) => {
      const detail = auditDetail(entry);
      return detail === null ? null : JSON.stringify(detail);
    }),
    column((entry) => entry.mobile ?? null),
  ]);
}

/** The row's detail: its before and after sides (or older plain facts), secrets hidden. */
function auditDetail(entry: AuditEntry): Values | null {
  const hasSides = entry.before !== undefined || entry.after !== undefined;
  if (hasSides)
    return {
      before: redactAuditValues(entry.before),
      after:
        entry.after === null && !entry.detail
          ? null
          : redactAuditValues({ ...entry.detail, ...entry.after }),
    };
  return entry.detail ? redactAuditValues(entry.detail) : null;
}

/** The branch an audit row is filed under: the acting staff member's, else the one given. */
const branchOf = (user: string, branch: string) =>
  `CASE WHEN ${user} IS NULL THEN ${branch} ELSE (SELECT branch_id FROM users WHERE id = ${user}) END`;

/**
 * Every change writes one, so it is written once and prepared. The acting staff member's
 * branch, as it is at the change; without one, the branch given (a counter's) or none (the
 * command line, the nightly jobs).
 */
const INSERT_AUDIT: Statement = {
  name: 'audit_insert',
  text: `
    INSERT INTO audit_log (user_id, branch_id, action, entity, entity_id, detail, mobile)
    VALUES ($1::int,
            ${branchOf('$1::int', '$2::int')},
            $3, $4, $5, $6::jsonb, $7)`,
};

/** INSERT_AUDIT for many rows, their columns as arrays. */
const INSERT_AUDITS: Statement = {
  name: 'audit_insert_many',
  text: `
    INSERT INTO audit_log (user_id, branch_id, action, entity, entity_id, detail, mobile)
    SELECT a.user_id,
           ${branchOf('a.user_id', 'a.branch_id')},
           a.action, a.entity, a.entity_id, a.detail, a.mobile
      FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::text[])
           AS a(user_id, branch_id, action, entity, entity_id, detail, mobile)`,
};

/**
 * Takes personal data out of the audit rows about one customer (an erasure): the named keys
 * leave each row's detail and its before and after sides, and the rows filed under the
 * customer's mobile number lose it. The rows themselves (who did what, when) stay.
 */
export async function removeFromAuditDetail(
  tx: Tx,
  about: { entity: string; entityId: string | number; mobile: string | null },
  keys: string[],
): Promise<void> {
  const names = sql`array[${sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  )}]::text[]`;
  // Older rows keep their sides as `from` and `to`.
  await tx
    .update(auditLog)
    .set({
      detail: sql`(
        SELECT jsonb_object_agg(side, CASE
          WHEN side IN ('before', 'after', 'from', 'to') AND jsonb_typeof(value) = 'object'
            THEN value - ${names}
          ELSE value END)
        FROM jsonb_each(${auditLog.detail} - ${names}) AS sides(side, value))`,
      mobile: null,
    })
    .where(
      or(
        and(eq(auditLog.entity, about.entity), eq(auditLog.entityId, String(about.entityId))),
        about.mobile === null ? undefined : eq(auditLog.mobile, about.mobile),
      ),
    );
}

/** The audit rows an erasure reaches: the customer's own, and those about their records. */
export interface AuditRowsOfCustomer {
  entity: string;
  entityId: string | number;
  /** Rows filed under the customer's mobile number. */
  mobile: string | null;
  /** Rows about the customer's other records: their ledger entries, their schemes. */
  records: { entity: string; ids: (string | number)[] }[];
}

/**
 * An erasure, in the audit rows of other customers' records that named the erased customer
 * (`records`: the entries and schemes whose narrations were just cleared): every mention that
 * `naming` finds in their text becomes `replacement`. Answers how many rows changed.
 */
export async function eraseNamingFromAuditText(
  tx: Tx,
  records: { entity: string; ids: (string | number)[] }[],
  naming: Naming,
  replacement: string,
): Promise<number> {
  const wanted = records.filter((record) => record.ids.length > 0);
  if (wanted.length === 0) return 0;
  const erase = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(naming.pattern, replacement);
    if (Array.isArray(value)) return value.map(erase);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, erase(item)]));
    return value;
  };
  const rows = await tx
    .select({ id: auditLog.id, detail: auditLog.detail })
    .from(auditLog)
    .where(
      or(
        ...wanted.map((record) =>
          and(
            eq(auditLog.entity, record.entity),
            inArray(auditLog.entityId, record.ids.map(String)),
          ),
        ),
      ),
    );
  let changed = 0;
  for (const row of rows) {
    const detail = erase(row.detail);
    if (JSON.stringify(detail) === JSON.stringify(row.detail)) continue;
    await tx.update(auditLog).set({ detail }).where(eq(auditLog.id, row.id));
    changed++;
  }
  return changed;
}

/**
 * Takes a customer out of the audit trail's free text (an erasure): in the rows about them,
 * every text that names them (their name, mobile number or e-mail, in any case) and every
 * narration typed by staff (all but Kanak's own default words, `keptNarrations`) becomes
 * `replacement`. Who did what, when, the amounts and the dates stay.
 */
export async function eraseFromAuditText(
  tx: Tx,
  about: AuditRowsOfCustomer,
  words: string[],
  keptNarrations: string[],
  replacement: string,
): Promise<void> {
  const named = words.filter((word) => word.trim() !== '');
  const naming =
    named.length === 0
      ? null
      : new RegExp(named.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
  const kept = new Set(keptNarrations);
  const erase = (value: unknown, field: string): unknown => {
    if (typeof value === 'string') {
      if (field === 'narration' && !kept.has(value)) return replacement;
      return naming?.test(value) ? replacement : value;
    }
    if (Array.isArray(value)) return value.map((item) => erase(item, field));
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, erase(item, key)]),
      );
    return value;
  };
  const rows = await tx
    .select({ id: auditLog.id, detail: auditLog.detail })
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entity, about.entity), eq(auditLog.entityId, String(about.entityId))),
        about.mobile === null ? undefined : eq(auditLog.mobile, about.mobile),
        ...about.records
          .filter((record) => record.ids.length > 0)
          .map((record) =>
            and(
              eq(auditLog.entity, record.entity),
              inArray(auditLog.entityId, record.ids.map(String)),
            ),
          ),
      ),
    );
  for (const row of rows) {
    const detail = erase(row.detail, '');
    if (JSON.stringify(detail) === JSON.stringify(row.detail)) continue;
    await tx.update(auditLog).set({ detail }).where(eq(auditLog.id, row.id));
  }
}
