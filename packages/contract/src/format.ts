/** Display formats, shared by screens, printouts, CSV files and messages. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const parts = (isoDate: string) => ({
  yyyy: isoDate.slice(0, 4),
  yy: isoDate.slice(2, 4),
  mm: isoDate.slice(5, 7),
  mmm: MONTHS[Number(isoDate.slice(5, 7)) - 1] ?? '',
  dd: isoDate.slice(8, 10),
});

/** Scheme screens: DD-MM-YYYY. */
export const formatSchemeDate = (isoDate: string) => {
  const { dd, mm, yyyy } = parts(isoDate);
  return `${dd}-${mm}-${yyyy}`;
};

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A month (YYYY-MM) in words, as the customer's portal names an installment's: December 2026. */
export const formatMonthName = (month: string) =>
  `${MONTH_NAMES[Number(month.slice(5, 7)) - 1] ?? ''} ${month.slice(0, 4)}`;

/** Customer profile: DD/MM/YYYY; the points table (en-GB) shows the same. */
export const formatSlashDate = (isoDate: string) => {
  const { dd, mm, yyyy } = parts(isoDate);
  return `${dd}/${mm}/${yyyy}`;
};

/** Points ledger printout: DD-MMM-YY (e.g. 01-Apr-26). */
export const formatLedgerPrintDate = (isoDate: string) => {
  const { dd, mmm, yy } = parts(isoDate);
  return `${dd}-${mmm}-${yy}`;
};

/** Points statement CSV: DD MMM YY. */
export const formatLedgerCsvDate = (isoDate: string) => {
  const { dd, mmm, yy } = parts(isoDate);
  return `${dd} ${mmm} ${yy}`;
};

// Made once: a formatter is costly to make, and every notice's text formats its rupees.
const WHOLE_RUPEES = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
const RUPEES_AND_PAISE = new Intl.NumberFormat('en-IN', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * ₹ with Indian digit grouping: ₹1,23,456 (paise shown only when there are some); a negative
 * amount (a cancelled redemption) with the minus before the sign, as it is written: −₹100.
 */
export const formatRupees = (amount: number): string =>
  amount < 0
    ? `−${formatRupees(-amount)}`
    : `₹${(Number.isInteger(amount) ? WHOLE_RUPEES : RUPEES_AND_PAISE).format(amount)}`;

/** ₹ with paise always shown (₹1.00, ₹5,000.00): a gateway's amount, exact to the paisa. */
export const formatRupeesAndPaise = (amount: number): string =>
  amount < 0 ? `−${formatRupeesAndPaise(-amount)}` : `₹${RUPEES_AND_PAISE.format(amount)}`;

/** A count and its noun, one or many, with Indian digit grouping: "1 notice", "1,250 notices". */
export const countOf = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-IN')} ${count === 1 ? one : many}`;

/** A receipt number as printed: the branch's code and the number in its run, `MAIN-000058`. */
export const receiptLabel = (branchCode: string, receiptNo: number) =>
  `${branchCode}-${String(receiptNo).padStart(6, '0')}`;

/**
 * A downloaded file's name with the dates it covers, so a folder of them sorts and reads by
 * day: `collections-2026-11-26.csv`, `collections-2026-11-01-to-2026-11-26.csv`; a file of no
 * dates is named for the day it was taken.
 */
export function datedFileName(
  base: string,
  { from, to }: { from?: string | undefined; to?: string | undefined },
  today: string,
  separator = '-',
): string {
  const first = from || to || today;
  const last = to || from || today;
  const span = first === last ? first : `${first}-to-${last}`;
  return `${base}${separator}${span}.csv`;
}
