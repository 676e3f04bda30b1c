import {
  LEDGER_TEXTS,
  csvLine,
  formatLedgerCsvDate,
  statementTotals,
  type PointsStatementFilter,
  type StatementRow,
} from '@kanak/contract';

const texts = LEDGER_TEXTS.statement;

/** A generated statement: its filter (with the customer's name) and its rows. */
export interface Statement {
  filter: PointsStatementFilter;
  custname: string;
  rows: readonly StatementRow[];
}

/** The date a row shows: the opening-balance row has none, and shows the statement's start. */
export const rowDate = (row: StatementRow, dfrom: string) => row.INVDATE ?? dfrom;

/** The statement as CSV (DD MMM YY dates), with its Total and Balance rows. */
export function statementCsv({ filter, rows }: Statement): string {
  const { total, balance } = statementTotals([...rows]);
  const c = texts.columns;
  return [
    csvLine([c.date, c.narration, c.sale, c.credit, c.debit]),
    ...rows.map((row) =>
      csvLine([
        formatLedgerCsvDate(rowDate(row, filter.DFROM)),
        row.NARRATION,
        row.SALEAMT.toFixed(2),
        row.RCREDIT,
        row.RDEBIT,
      ]),
    ),
    csvLine([texts.total, '', total.sale.toFixed(2), total.credit, total.debit]),
    csvLine([texts.balance, '', '', balance.credit, balance.debit]),
  ].join('');
}

/** points_ledger_<mobile>_<from>_<to>.csv */
export const statementFileName = ({ filter }: Statement) =>
  texts.csvFileName(filter.MOBILENO, filter.DFROM, filter.DTO);
