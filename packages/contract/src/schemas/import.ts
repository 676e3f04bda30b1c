import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from '../limits.js';
import { IMPORT_MESSAGES } from '../ui-texts-import.js';

/** What an owner can bring in from other software, one file at a time. */
export const IMPORT_KINDS = ['customers', 'schemes'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The largest import file taken: a 100,000-customer workbook or CSV is well under it. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/**
 * The most rows (empty ones aside) one file may hold: twice the 100,000 customers of a large
 * shop switching over. A file of more is refused before any row is checked.
 */
export const IMPORT_MAX_ROWS = 200_000;

/** The most columns a file may have: other software's exports have a few dozen. */
export const IMPORT_MAX_COLUMNS = 200;

/**
 * The problems an import's answer lists (the first, by row); `errorCount` says how many there
 * are, and the whole list is a CSV download (`?format=csv` on a check). An answer is kept for
 * retries: a file of 200,000 bad rows must not make it megabytes.
 */
export const IMPORT_ERRORS_LISTED = 100;

/**
 * The columns each kind reads, and the header names other jeweller software gives them. A
 * header is matched after lower-casing it and dropping spaces, dots, underscores and hyphens.
 */
export const IMPORT_COLUMNS = {
  customers: {
    mobile: ['mobile', 'mobileno', 'mobilenumber', 'phone', 'phoneno', 'contact', 'cell'],
    name: ['name', 'customername', 'custname', 'customer', 'partyname', 'fullname'],
    email: ['email', 'emailid', 'mail'],
    address: ['address', 'address1', 'addr'],
    city: ['city', 'town'],
    pincode: ['pincode', 'pin', 'postcode', 'zip', 'pinno'],
    state: ['state'],
    dob: ['dob', 'dateofbirth', 'birthdate', 'birthday'],
    doa: ['doa', 'anniversary', 'anniversarydate', 'dateofanniversary', 'marriagedate'],
    points: [
      'points',
      'balance',
      'pointsbalance',
      'pointbalance',
      'loyaltypoints',
      'openingpoints',
      'closingbalance',
      'closingpoints',
    ],
    expires: ['expires', 'expiry', 'expirydate', 'expireson', 'pointsexpiry', 'validtill'],
  },
  schemes: {
    mobile: ['mobile', 'mobileno', 'mobilenumber', 'phone', 'phoneno', 'contact', 'cell'],
    plan: ['plan', 'scheme', 'schemename', 'plancode', 'schemetype'],
    start: ['start', 'startdate', 'startdt', 'joiningdate', 'joindate', 'opendate', 'date'],
    amount: ['amount', 'installment', 'installmentamount', 'monthlyamount', 'emi'],
    paid: ['paid', 'installmentspaid', 'paidinstallments', 'instpaid', 'noofinstallments'],
  },
} as const satisfies Record<ImportKind, Record<string, readonly string[]>>;

/** The columns a file must have. */
export const IMPORT_REQUIRED: Record<ImportKind, readonly string[]> = {
  customers: ['mobile', 'name'],
  schemes: ['mobile', 'start', 'amount'],
};

/** The form fields of an import upload; `file` is read into its SHA-256 before validation. */
export const importFields = z.object({
  dryRun: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', ''])])
    .optional()
    .transform((value) => value === true || value === 'true' || value === '1' || value === 'on'),
});

/**
 * The longest value or name a problem repeats from the file (longer ones are cut, with …): a
 * cell may hold a whole page of text, and the answer lists up to IMPORT_ERRORS_LISTED.
 */
export const IMPORT_VALUE_SHOWN = 100;

export const importRowError = z.object({
  /** The row's number as the spreadsheet shows it (the header is row 1). */
  row: z.number().int(),
  /** The column's header as the file spells it, or '' for the row as a whole. */
  column: z.string(),
  /**
   * The cell as the file holds it (a workbook's date as DD/MM/YYYY, a formula as =…); for the
   * row as a whole, its mobile number as written. '' in an answer repeated from the replay
   * store, which keeps no customer's details.
   */
  value: z.string(),
  /** The customer's name as the row gives it; '' when the file has no name column. */
  name: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowError>;

/** A problem as a row of the report's CSV, in the order of IMPORT_TEXTS.reportColumns. */
export const importProblemCells = (problem: ImportRowError) => [
  problem.row,
  problem.name,
  problem.column,
  problem.value,
  problem.message,
];

export const importResult = z.object({
  rows: z.number().int(),
  valid: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  /** The first IMPORT_ERRORS_LISTED problems, by row. */
  errors: z.array(importRowError),
  /** Every problem found, listed or not. */
  errorCount: z.number().int(),
  /** The sheet read, for a workbook; null for a CSV. */
  sheet: z.string().nullable(),
  /** Facts about the file as a whole (other sheets not read). */
  notices: z.array(z.string()),
  dryRun: z.boolean(),
});
export type ImportResult = z.infer<typeof importResult>;

export const importResponse = z.object({ success: z.literal(true), data: importResult });

/**
 * With `format=csv` on a check: every problem as the CSV text itself (UTF-8, byte-order mark
 * first; row, name, column, value in the file, problem), not an envelope.
 */
export const importProblemsCsvResponse = z.string();

/** `format=csv`: a check answers the whole list of problems as a CSV file instead. */
export const importQuery = z.object({
  format: z.enum(['json', 'csv'], { error: IMPORT_MESSAGES.format }).default('json'),
});

/** Which import's progress: the Idempotency-Key its upload was sent with. */
export const importProgressQuery = z.object({
  key: z
    .string({ error: IMPORT_MESSAGES.progressKey })
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: IMPORT_MESSAGES.progressKey }),
});

/**
 * An import being written: the rows read so far, of the file's rows (known once the file has
 * been read through, before the first is written). None before that, after it, or for another
 * staff member's import.
 */
export const importProgress = z.object({ rows: z.number().int(), total: z.number().int() });
export type ImportProgress = z.infer<typeof importProgress>;

export const importProgressResponse = z.object({
  success: z.literal(true),
  data: importProgress.nullable(),
});
