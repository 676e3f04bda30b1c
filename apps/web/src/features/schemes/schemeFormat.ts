import {
  MATURITY_DAYS,
  SCHEME_STATUS,
  SCHEME_TEXTS,
  addDays,
  csvLine,
  monthAfter,
  formatSchemeDate,
  schemeStatusLabel,
  type SchemeRecord,
  type SchemeStatementRow,
  type SchemeSummaryRow,
} from '@kanak/contract';

/** The maturity date; when the record has none, the start date plus 364 days. */
export const maturityDate = (scheme: { startdt: string; matdt: string | null | undefined }) =>
  scheme.matdt || addDays(scheme.startdt, MATURITY_DAYS);

export const sumAmounts = (rows: readonly { amount: number }[]) =>
  rows.reduce((sum, row) => sum + row.amount, 0);

/** A weight scheme's rows carry the day's 22K rate and the milligrams it bought. */
export const isWeight = (rows: readonly SchemeStatementRow[]) => rows.some((row) => row.mg != null);
export const sumMilligrams = (rows: readonly SchemeStatementRow[]) =>
  rows.reduce((sum, row) => sum + (row.mg ?? 0), 0);

/** An Active scheme can take installments while some are still unpaid. */
export const canAddInstallment = (scheme: SchemeRecord) =>
  scheme.matyn === SCHEME_STATUS.active && scheme.paid < scheme.installments;

/**
 * Which months today's counter can take: this month's installment, or (once it is paid) the
 * next month's in advance, when that month is unpaid and within the term. One per month.
 */
export function installmentMonths(
  scheme: SchemeRecord,
  rows: readonly SchemeStatementRow[],
  today: string,
) {
  const paidFor = (month: string) =>
    rows.some((row) => row.receiptNo && (row.period ?? row.date.slice(0, 7)) === month);
  const thisMonth = today.slice(0, 7);
  const nextMonth = monthAfter(thisMonth);
  const open = canAddInstallment(scheme);
  const thisMonthPaid = paidFor(thisMonth);
  return {
    thisMonth,
    nextMonth,
    /** Active with installments still to pay: Add installment shows, on or off. */
    open,
    thisMonthPaid,
    nextMonthPaid: paidFor(nextMonth),
    mayTakeThisMonth: open && !thisMonthPaid,
    mayTakeAdvance:
      open && thisMonthPaid && !paidFor(nextMonth) && nextMonth <= maturityDate(scheme).slice(0, 7),
  };
}

/** An Active scheme can close once every installment is paid or its maturity date has passed. */
export const canClose = (scheme: SchemeRecord, today: string) =>
  scheme.matyn === SCHEME_STATUS.active &&
  (scheme.paid >= scheme.installments || today > maturityDate(scheme));

const statement = SCHEME_TEXTS.statement;
const summary = SCHEME_TEXTS.summary;

/** The statement's rows as CSV: S no., Installment Date (DD-MM-YYYY), Narration, Amount. */
export function statementCsv(rows: readonly SchemeStatementRow[]): string {
  const c = statement.columns;
  return [
    csvLine([c.sno, c.date, c.narration, c.amount]),
    ...rows.map((row, i) =>
      csvLine([i + 1, formatSchemeDate(row.date), row.narration, row.amount]),
    ),
  ].join('');
}

/** The summary's rows as CSV, with the status as the screen names it. */
export function summaryCsv(rows: readonly SchemeSummaryRow[]): string {
  const c = summary.columns;
  return [
    csvLine([c.schemeId, c.name, c.mobile, c.startDate, c.amount, c.status]),
    ...rows.map((row) =>
      csvLine([
        row.schemeid,
        row.custname,
        row.mobileno,
        formatSchemeDate(row.startdt),
        row.amount,
        schemeStatusLabel(row.matyn),
      ]),
    ),
  ].join('');
}
