import { countOf } from './format.js';
import type { ImportKind } from './schemas/import.js';

/** What an import says about a file, a row or a cell, in words an owner understands. */
export const IMPORT_MESSAGES = {
  fileRequired: 'Please choose a CSV or Excel (.xlsx) file to import.',
  progressKey:
    "Give the Idempotency-Key the import's upload was sent with (8 to 100 letters, digits, _ or -).",
  empty: 'The file is empty.',
  noRows: 'The file has a header row but no rows below it.',
  tooLarge: (mb: number) => `The file is larger than ${mb} MB. Please split it into smaller files.`,
  tooManyRows: (rows: number) =>
    `The file has more than ${rows.toLocaleString('en-IN')} rows. Please split it into smaller files.`,
  tooManyColumns: (columns: number) =>
    `The file has more than ${columns} columns. Please delete the columns that are not imported, then upload it again.`,
  notUtf8:
    'This file is not saved as UTF-8. In Excel choose Save As → CSV UTF-8, then upload it again.',
  workbookTooLarge: (mb: number) =>
    `The workbook is larger than ${mb} MB once unpacked. Please save it as CSV UTF-8, or split it into smaller files.`,
  workbookPartTooLarge: (mb: number) =>
    `The workbook holds more than ${mb} MB of text or formatting once unpacked. Please save it as CSV UTF-8, or split it into smaller files.`,
  format: 'The answer can be JSON or CSV only.',
  problemsOfACheck:
    'The list of every problem comes with a check of the file, not with its import: check the file, then download the list.',
  notXlsx:
    'This file is named .xlsx but is not an Excel workbook. Open it in Excel and save it as an Excel Workbook (.xlsx) or as CSV.',
  oldXls:
    'This is an old Excel file (.xls). Open it in Excel and save it as an Excel Workbook (.xlsx) or as CSV.',
  unreadableWorkbook: 'The Excel workbook could not be read. Please save it again as .xlsx or CSV.',
  unreadableCsv: (line: number) =>
    `The CSV file could not be read at line ${line}. Please check its quotes, or save it again as CSV.`,
  binary: 'This file is neither a CSV nor an Excel workbook.',
  noSheet: 'The workbook has no sheet with rows.',
  missingColumns: (columns: string[], found: string[]) =>
    `The file has no ${columns.join(', ')} column. Found: ${found.filter(Boolean).join(', ') || 'no header'}.`,
  /** A first row of a customer's details, not column names: it is not repeated back. */
  noHeaderRow: (columns: string[]) =>
    `The file has no ${columns.join(', ')} column: its first row must name the columns.`,
  sheetRead: (sheet: string, count: number) =>
    `The workbook has ${count} sheets; only the first, “${sheet}”, was read.`,
  formula:
    'This cell holds a formula. Copy the column and paste it as values (Paste Special → Values), then import again.',
  mobile: 'Not a 10-digit Indian mobile number.',
  duplicate: (row: number) => `The same mobile number as row ${row}.`,
  duplicateScheme: (row: number) => `The same scheme as row ${row}.`,
  date: 'Not a date: use DD/MM/YYYY.',
  dateFuture: 'The date is in the future.',
  expired: 'The expiry date has already passed.',
  points: (max: number) =>
    `Points must be a whole number from 0 to ${max.toLocaleString('en-IN')}.`,
  expiryWithoutPoints: 'An expiry date without points.',
  unknownCustomer: 'No customer has this mobile number: import the customers first.',
  erasedCustomer:
    "This customer's data was erased at their request: they are not imported again. Add them at the counter if they come back.",
  unknownPlan: (plans: string[]) => `Unknown plan: use ${plans.join(' or ')}, or leave it empty.`,
  amount: 'The amount must be whole rupees from 1 to 99,99,999.',
  paid: (max: number) => `Installments paid must be a whole number from 0 to ${max}.`,
  erased: 'This customer was erased: their number cannot be imported again.',
  done: (created: number, updated: number) =>
    `Imported: ${created} new, ${updated} updated. Rows with errors were skipped.`,
} as const;

/** The owner's Import screen. */
export const IMPORT_TEXTS = {
  title: 'Import',
  intro:
    'Bring customers, their opening points and running schemes from other software, as CSV or Excel (.xlsx). Check the file first: nothing changes until you confirm the import. Importing the same file again changes nothing.',
  kind: 'What the file holds',
  kinds: { customers: 'Customers and opening points', schemes: 'Running schemes' },
  columnsHelp: {
    customers:
      'Columns: Mobile, Name, and if you have them Email, Address, City, Pincode, State, DOB, Anniversary, Points, Expiry.',
    schemes:
      'Columns: Mobile, Plan (STD or empty), Start Date, Amount, Installments Paid. Import the customers first.',
  },
  mobileHelp:
    'Mobile numbers may have spaces, dashes, dots or brackets, and +91, 91 or 0 in front (98400-11005, +91 98400 11005, 098400 11005): the 10 digits are kept. Any other number is refused.',
  template: 'Download template (CSV)',
  templateHelp:
    'The template has the columns Kanak reads and one example row: replace it with yours.',
  templateFile: (kind: ImportKind) => `kanak-import-${kind}.csv`,
  file: 'File',
  check: 'Check file',
  checking: 'Checking the file',
  /** The real run, pressed once the check has said what it will do. */
  confirm: 'Confirm import',
  importing: 'Importing',
  /** What the check found the import would do: "17 customers will be imported". */
  willImport: (kind: ImportKind, count: number) =>
    `${kind === 'customers' ? countOf(count, 'customer', 'customers') : countOf(count, 'scheme', 'schemes')} will be imported`,
  skipped: (rows: number) => `${countOf(rows, 'row', 'rows')} skipped`,
  seeWhy: 'see why',
  /** Valid rows the file holds as Kanak already does (imported before). */
  unchanged: (rows: number) => `${countOf(rows, 'row', 'rows')} already imported, no change`,
  failed: 'Error in importing the file.',
  report: 'Report',
  rows: 'Rows',
  valid: 'Valid',
  created: 'New',
  updated: 'Updated',
  errors: 'Rows with errors',
  noErrors: 'Every row is valid.',
  download: 'Download report (CSV)',
  downloadAll: 'Download all (CSV)',
  /** Above the table when the answer lists only the first problems of many. */
  showingFirst: (shown: number, total: number) =>
    `Showing the first ${shown.toLocaleString('en-IN')} of ${total.toLocaleString('en-IN')} problems.`,
  reportFile: 'import-report.csv',
  row: 'Row',
  name: 'Name',
  column: 'Column',
  value: 'Value in the file',
  message: 'Problem',
  sheet: 'Sheet read',
  checked: 'Checked: nothing was changed yet.',
  uploaded: (percent: number) => `Uploading ${percent}%`,
  imported: (rows: number, total: number) =>
    `Importing: ${rows.toLocaleString('en-IN')} of ${total.toLocaleString('en-IN')} rows`,
} as const;

/** The report's columns, on the screen and in its CSV. */
export const IMPORT_REPORT_COLUMNS = [
  IMPORT_TEXTS.row,
  IMPORT_TEXTS.name,
  IMPORT_TEXTS.column,
  IMPORT_TEXTS.value,
  IMPORT_TEXTS.message,
] as const;

/**
 * The template the screen offers: the header row each kind reads, named as its columns help
 * names them, and one example row in the forms the import takes (dates DD/MM/YYYY).
 */
export const IMPORT_TEMPLATES: Record<ImportKind, { header: string[]; example: string[] }> = {
  customers: {
    header: [
      'Mobile',
      'Name',
      'Email',
      'Address',
      'City',
      'Pincode',
      'State',
      'DOB',
      'Anniversary',
      'Points',
      'Expiry',
    ],
    example: [
      '98400 11005',
      'Lakshmi Narayanan',
      'lakshmi@example.in',
      '12 North Mada Street, Mylapore',
      'Chennai',
      '600004',
      'Tamil Nadu',
      '15/08/1985',
      '20/05/2010',
      '1500',
      '',
    ],
  },
  schemes: {
    header: ['Mobile', 'Plan', 'Start Date', 'Amount', 'Installments Paid'],
    example: ['98400 11005', 'STD', '01/04/2025', '5000', '3'],
  },
};
