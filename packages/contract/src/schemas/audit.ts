import { z } from 'zod';
import { countOf } from '../format.js';
import { LIMITS } from '../limits.js';
import {
  dataResponse,
  emptyToUndefined,
  fromNotAfterTo,
  fromNotAfterToRule,
  optionalIsoDate,
  optionalMobileParam,
  pageParam,
  storableText,
} from './common.js';

/** What an audit row is about: the screen's "Entity" filter offers these. */
export const AUDIT_ENTITIES = [
  'customer',
  'points_entry',
  'scheme',
  'user',
  'app_image',
  'panel_config',
  'branch',
  'notice_template',
  'notice',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** How the Audit screen names each entity. */
export const AUDIT_ENTITY_LABELS: Record<AuditEntity, string> = {
  customer: 'Customer',
  points_entry: 'Points entry',
  scheme: 'Scheme',
  user: 'Staff account',
  app_image: 'App image',
  panel_config: 'Messaging panel',
  branch: 'Branch',
  notice_template: 'Message template',
  notice: 'Notice to a customer',
};

/** The value shown in place of anything secret (Aadhaar, PAN, passwords, tokens, keys). */
export const AUDIT_HIDDEN = '(hidden)';

/**
 * The Audit screen's filters, as query parameters. Empty parameters mean "any". Dates are
 * `YYYY-MM-DD` like every payload date (the screen shows them as DD/MM/YYYY).
 */
export const auditQuery = z
  .object({
    user: z.preprocess(
      emptyToUndefined,
      storableText('user')
        .trim()
        .max(LIMITS.usernameMaxLength, {
          error: `User must be at most ${LIMITS.usernameMaxLength} characters.`,
        })
        .optional(),
    ),
    entity: z.preprocess(
      emptyToUndefined,
      z
        .enum(AUDIT_ENTITIES, { error: `Record type must be one of ${AUDIT_ENTITIES.join(', ')}.` })
        .optional(),
    ),
    mobile: optionalMobileParam,
    from: optionalIsoDate('from'),
    to: optionalIsoDate('to'),
    page: pageParam(LIMITS.auditMaxPages, 'changes'),
    format: z.preprocess(
      emptyToUndefined,
      z.enum(['json', 'csv'], { error: 'Format must be json or csv.' }).default('json'),
    ),
  })
  .refine(fromNotAfterTo, fromNotAfterToRule);
export type AuditQuery = z.input<typeof auditQuery>;

const auditValues = z.record(z.string(), z.unknown()).nullable();

/** One change: who made it, when, where, to what, and the values before and after. */
export const auditEntry = z.object({
  id: z.number(),
  /** ISO timestamp. */
  at: z.string(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  /** The branch's code where the change was made; none before the shop has branches. */
  branch: z.string().nullable(),
  entity: z.string(),
  entityId: z.string().nullable(),
  action: z.string(),
  /** The customer's mobile number when the change concerns a customer. */
  mobile: z.string().nullable(),
  before: auditValues,
  after: auditValues,
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditResponse = dataResponse(z.array(auditEntry)).extend({
  /** Matching changes, counted up to LIMITS.auditCountCap. */
  total: z.number(),
  /** True when there are more than `total` matching changes (the count stopped at its cap). */
  totalCapped: z.boolean(),
});
export type AuditResponse = z.infer<typeof auditResponse>;
/** With `format=csv`: the CSV text itself (UTF-8, byte-order mark first), not an envelope. */
export const auditCsvResponse = z.string();

export const AUDIT_CSV_FILE_NAME = 'audit_log.csv';
export const AUDIT_CSV_COLUMNS = [
  'When',
  'Username',
  'Name',
  'Branch',
  'Entity',
  'Entity ID',
  'Action',
  'Mobile',
  'Before',
  'After',
] as const;

/** One side of a change as a line a person reads: "name: Asha; role: cashier". */
/** One value of a change as text: "—" for none, JSON for a list or an object. */
export function formatAuditValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function formatAuditValues(values: Record<string, unknown> | null): string {
  if (!values) return '';
  return Object.entries(values)
    .map(([field, value]) => `${field}: ${formatAuditValue(value)}`)
    .join('; ');
}

const auditTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** When a change was made, in the store's time zone: "24/11/2026, 14:05". */
export function formatAuditTime(iso: string, timeZone: string): string {
  let format = auditTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    auditTimeFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/** The Audit screen's words. */
export const AUDIT_TEXTS = {
  filters: 'Filters',
  user: 'Staff username',
  entity: 'Entity',
  anyEntity: 'Any',
  mobile: 'Customer mobile',
  from: 'From',
  to: 'To',
  search: 'Search',
  clear: 'Clear',
  csv: 'Download CSV',
  csvPending: 'Preparing CSV',
  table: 'Changes',
  loading: 'Loading changes',
  empty: 'No changes match these filters.',
  columns: {
    when: 'When',
    who: 'Who',
    branch: 'Branch',
    what: 'What',
    action: 'Action',
    mobile: 'Mobile',
    change: 'Before → After',
  },
  before: 'Before',
  after: 'After',
  pageOf: (page: number, pages: number, total: number, capped: boolean) =>
    `Page ${page} of ${pages}${capped ? '+' : ''} · ${
      capped ? `${total.toLocaleString('en-IN')}+ changes` : countOf(total, 'change', 'changes')
    }`,
  loadFailed: 'Could not load the audit trail. Please try again.',
  csvFailed: 'Could not download the audit trail. Please try again.',
  noBranch: '—',
} as const;
