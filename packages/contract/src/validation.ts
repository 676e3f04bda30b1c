/** Identity-number checks shared by the server and the forms. */

// Verhoeff tables (the Aadhaar check digit).
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

export function passesVerhoeff(digits: string): boolean {
  let check = 0;
  [...digits].reverse().forEach((digit, i) => {
    check = D[check]![P[i % 8]![Number(digit)]!]!;
  });
  return check === 0;
}

/** 12 digits (spaces allowed when typed), not starting with 0 or 1, with a valid check digit. */
export function isValidAadhaar(value: string): boolean {
  const digits = value.replace(/\s+/g, '');
  return /^[2-9]\d{11}$/.test(digits) && passesVerhoeff(digits);
}

/**
 * An Indian mobile number: 10 digits, the first 6, 7, 8 or 9 (the national numbering plan
 * gives mobiles no other first digit). Typed without +91 or a leading 0.
 */
export const INDIAN_MOBILE_PATTERN = /^[6-9]\d{9}$/;
export const isIndianMobile = (value: string) => INDIAN_MOBILE_PATTERN.test(value);

export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

/** How an Aadhaar number is shown and exported: only its last four digits. */
export const maskAadhaar = (last4: string) => `XXXXXXXX${last4}`;
export const MASKED_AADHAAR_PATTERN = /^X{8}\d{4}$/;

/**
 * One CSV cell. Cells that a spreadsheet would run as a formula (= + - @, tab, CR) get a
 * leading apostrophe (CSV injection); quotes are doubled and the cell quoted when needed.
 */
export function csvCell(value: unknown): string {
  // A number is never a formula: -500 (a cancelled redemption) stays a number in a spreadsheet.
  if (typeof value === 'number') return String(value);
  let text = value == null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * The UTF-8 byte-order mark every CSV file starts with: without it Excel reads the file in the
 * PC's legacy code page and shows ₹ and Hindi or Tamil names as mojibake.
 */
export const CSV_BOM = '\uFEFF';
