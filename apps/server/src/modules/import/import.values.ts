import {
  formatSlashDate,
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  IMPORT_VALUE_SHOWN,
  isIndianMobile,
  type ImportKind,
} from '@kanak/contract';
import { text, type Cell } from './import.read.js';

/** A header as matched: lower case, without spaces, dots, underscores, hyphens or slashes. */
export const headerKey = (header: string) => header.toLowerCase().replace(/[\s._\-/#()]+/g, '');

/** Which file column (by index) holds each of the kind's fields; the first match wins. */
export function mapColumns(kind: ImportKind, header: string[]) {
  const keys = header.map(headerKey);
  const found: Record<string, number> = {};
  for (const [field, names] of Object.entries(IMPORT_COLUMNS[kind])) {
    const index = keys.findIndex((key) => (names as readonly string[]).includes(key));
    if (index >= 0) found[field] = index;
  }
  return found;
}

export class CellError extends Error {}

/** A cell's text; a formula is refused (its cached result may be stale, or missing). */
export function plain(cell: Cell | undefined): string {
  if (cell && typeof cell === 'object' && !(cell instanceof Date))
    throw new CellError(IMPORT_MESSAGES.formula);
  return text(cell);
}

/**
 * A cell as the owner sees it in the file, for a problem's report: a workbook's date as
 * DD/MM/YYYY, a formula as =…, anything past IMPORT_VALUE_SHOWN characters cut. Customers'
 * details: it goes back to the owner who sent the file, never to a log.
 */
export function asWritten(cell: Cell | undefined): string {
  const shown =
    cell instanceof Date
      ? Number.isNaN(cell.getTime())
        ? ''
        : formatSlashDate(cell.toISOString().slice(0, 10))
      : cell && typeof cell === 'object'
        ? `=${cell.formula}`
        : text(cell);
  if (shown.length <= IMPORT_VALUE_SHOWN) return shown;
  // By code points, never halving one written as two UTF-16 units (an emoji in a name).
  // Enough units for one point more than is shown, if the cell has it.
  const points = [...shown.slice(0, 2 * IMPORT_VALUE_SHOWN + 2)];
  return points.length > IMPORT_VALUE_SHOWN
    ? `${points.slice(0, IMPORT_VALUE_SHOWN - 1).join('')}…`
    : shown;
}

/** A mobile number as other software writes it: spaces, +91, a leading 0, a number cell. */
export function mobile(cell: Cell | undefined): string {
  const digits = plain(cell)
    .replace(/[\s\-().]/g, '')
    .replace(/^(\+?91|0)(?=\d{10}$)/, '');
  if (!isIndianMobile(digits)) throw new CellError(IMPORT_MESSAGES.mobile);
  return digits;
}

/** Excel counts days from 30 December 1899 (its 1900 leap-year slip included). */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

const iso = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return null;
  return date.toISOString().slice(0, 10);
};

/**
 * A date as YYYY-MM-DD, or '' for an empty cell: a workbook's date or its day serial, or text
 * as DD/MM/YYYY (or with - or .), or YYYY-MM-DD. Indian files put the day first.
 */
export function date(cell: Cell | undefined): string {
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) throw new CellError(IMPORT_MESSAGES.date);
    return cell.toISOString().slice(0, 10);
  }
  const serial =
    typeof cell === 'number' ? cell : /^\d{5}$/.test(plain(cell)) ? Number(plain(cell)) : NaN;
  if (!Number.isNaN(serial)) {
    // 1 January 1920 to 31 December 2099: nothing a jeweller keeps is outside those.
    if (serial < 7306 || serial > 73415) throw new CellError(IMPORT_MESSAGES.date);
    return new Date(EXCEL_EPOCH + Math.floor(serial) * DAY_MS).toISOString().slice(0, 10);
  }
  const value = plain(cell);
  if (value === '') return '';
  let found: string | null = null;
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  const yearFirst = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(value);
  if (dayFirst) found = iso(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]));
  else if (yearFirst) found = iso(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
  if (!found) throw new CellError(IMPORT_MESSAGES.date);
  return found;
}

/** A whole number (written with Indian or western grouping commas), or null for an empty cell. */
export function whole(cell: Cell | undefined, message: string): number | null {
  if (typeof cell === 'number') {
    if (!Number.isSafeInteger(cell) || cell < 0) throw new CellError(message);
    return cell;
  }
  const value = plain(cell).replace(/,/g, '');
  if (value === '') return null;
  if (!/^\d+(\.0+)?$/.test(value)) throw new CellError(message);
  return Number.parseInt(value, 10);
}
