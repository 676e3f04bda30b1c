import {
  IMPORTED_MODE,
  SCHEME_STATUS,
  SCHEME_TEXTS,
  csvLine,
  formatSchemeDate,
  installmentNumber,
  maturityOf,
  mayClose,
  payableMonths,
  schemeStatusLabel,
  type InstallmentReceipt,
  type SchemeRecord,
  type SchemeStanding,
  type SchemeStatementRow,
  type SchemeSummaryRow,
} from '@kanak/contract';
import type { SchemeStatement } from './api';

export const sumAmounts = (rows: readonly { amount: number }[]) =>
  rows.reduce((sum, row) => sum + row.amount, 0);

/** A weight scheme's rows carry the day's 22K rate and the milligrams it bought. */
export const isWeight = (rows: readonly SchemeStatementRow[]) => rows.some((row) => row.mg != null);
export const sumMilligrams = (rows: readonly SchemeStatementRow[]) =>
  rows.reduce((sum, row) => sum + (row.mg ?? 0), 0);

/** The scheme as its rules read it. */
const standing = (scheme: SchemeRecord): SchemeStanding => ({
  active: scheme.matyn === SCHEME_STATUS.active,
  installments: scheme.installments,
  paid: scheme.paid,
  matdt: maturityOf(scheme),
});

/** The months whose installment the statement's rows hold (an advance holds its own month). */
const paidMonths = (rows: readonly SchemeStatementRow[]) =>
  rows.filter((row) => row.receiptNo).map((row) => row.period ?? row.date.slice(0, 7));

/** Which months today's counter can take (see payableMonths). */
export const installmentMonths = (
  scheme: SchemeRecord,
  rows: readonly SchemeStatementRow[],
  today: string,
) => payableMonths(standing(scheme), paidMonths(rows), today);

/** An Active scheme can close once every installment is paid or its maturity date has passed. */
export const canClose = (scheme: SchemeRecord, today: string) => mayClose(standing(scheme), today);

/**
 * An installment's receipt as printed again from its statement row (`index` in the rows); none
 * for a row that is no installment, or one imported from other software (no Kanak receipt).
 */
export function reprintedReceipt(
  { scheme, custname, mobileno, rows }: SchemeStatement,
  row: SchemeStatementRow,
  index: number,
): InstallmentReceipt | null {
  if (!row.receiptNo || row.mode === IMPORTED_MODE) return null;
  // The rows before it are its scheme's earlier installments, in the order paid.
  const earlier = rows.slice(0, index);
  return {
    receiptNo: row.receiptNo,
    branch: row.branch ?? null,
    schemeid: scheme.schemeid,
    custname,
    mobileno,
    date: row.date,
    amount: row.amount,
    mode: row.mode ?? 'cash',
    reference: row.reference ?? '',
    installmentNo: installmentNumber(earlier.length),
    installments: scheme.installments,
    forMonth: row.period ?? row.date.slice(0, 7),
    paidSoFar: sumAmounts(earlier) + row.amount,
    rate22k: row.rate22k,
    mg: row.mg,
  };
}

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
