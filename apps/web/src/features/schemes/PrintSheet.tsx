import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import {
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  formatGrams,
  formatRupees,
  formatSchemeDate,
  schemeStatusLabel,
  type SchemeStatementRow,
  type SchemeSummaryRow,
  maturityOf,
} from '@kanak/contract';
import {
  PRINT_CELL_SX,
  PRINT_NUMBER_SX,
  PrintFrame,
  PrintLines,
  PrintTable,
} from '../../components/PrintFrame';
import type { SchemeStatement } from './api';
import { isWeight, sumAmounts, sumMilligrams } from './schemeFormat';

const cellSx = PRINT_CELL_SX;
const numberSx = PRINT_NUMBER_SX;

interface Column<Row> {
  header: string;
  numeric?: boolean;
  /** The total goes under this column. */
  total?: boolean;
  cell: (row: Row, index: number) => ReactNode;
}

/**
 * A printout: hidden on screen, the only thing on paper (the screen's controls are marked
 * no-print). The shop's heading, its address and phone, the given lines, then the rows and total.
 */
function PrintSheet<Row>({
  testId,
  lines,
  columns,
  rows,
  rowKey,
  total,
}: {
  testId: string;
  lines: ReactNode[];
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  total: { label: string; value: string };
}) {
  const at = Math.max(
    0,
    columns.findIndex((column) => column.total),
  );
  const after = columns.length - at - 1;
  return (
    <PrintFrame testId={testId}>
      <PrintLines lines={lines} />
      <PrintTable
        columns={columns.map((column) => ({ ...column, key: column.header }))}
        rows={rows}
        rowKey={rowKey}
        foot={
          <tr>
            <Box component="th" scope="row" colSpan={at} sx={cellSx}>
              {total.label}
            </Box>
            <Box component="td" sx={numberSx}>
              {total.value}
            </Box>
            {after > 0 && <Box component="td" colSpan={after} sx={cellSx} />}
          </tr>
        }
      />
    </PrintFrame>
  );
}

/**
 * The printed statement: shop, customer, scheme id, start and maturity dates, rows, total; a
 * weight scheme adds each row's 22K rate and grams, and the grams in all.
 */
export function StatementPrint({ statement }: { statement: SchemeStatement }) {
  const texts = SCHEME_TEXTS.statement;
  const c = texts.columns;
  const gold = SCHEME_PLAN_TEXTS;
  const { scheme } = statement;
  const weight = isWeight(statement.rows);
  return (
    <PrintSheet
      testId="print-scheme-statement"
      lines={[
        texts.printTitle(scheme.schemeid),
        texts.printCustomer(statement.custname, statement.mobileno),
        texts.printTerm(formatSchemeDate(scheme.startdt), formatSchemeDate(maturityOf(scheme))),
        ...(weight
          ? [`${gold.totalGrams}: ${gold.grams(formatGrams(sumMilligrams(statement.rows)))}`]
          : []),
      ]}
      columns={[
        { header: c.sno, cell: (_row, i) => i + 1 },
        { header: c.date, cell: (row) => formatSchemeDate(row.date) },
        { header: c.narration, cell: (row) => row.narration },
        { header: c.amount, numeric: true, total: true, cell: (row) => formatRupees(row.amount) },
        ...(weight
          ? [
              {
                header: gold.colRate,
                numeric: true,
                cell: (row: SchemeStatementRow) =>
                  row.rate22k == null ? '' : formatRupees(row.rate22k),
              },
              {
                header: gold.colGrams,
                numeric: true,
                cell: (row: SchemeStatementRow) => (row.mg == null ? '' : formatGrams(row.mg)),
              },
            ]
          : []),
      ]}
      rows={statement.rows}
      rowKey={(row) => `${row.date}|${row.narration}`}
      total={{ label: texts.total, value: formatRupees(sumAmounts(statement.rows)) }}
    />
  );
}

/** The printed summary: the filter, then Scheme ID, Name, Mobile No, Start Date, Amount, Status. */
export function SummaryPrint({
  rows,
  status,
  from,
  to,
}: {
  rows: readonly SchemeSummaryRow[];
  status: string;
  from: string;
  to: string;
}) {
  const texts = SCHEME_TEXTS.summary;
  const c = texts.columns;
  return (
    <PrintSheet
      testId="print-scheme-summary"
      lines={[texts.printTitle(status, formatSchemeDate(from), formatSchemeDate(to))]}
      columns={[
        { header: c.schemeId, cell: (row) => row.schemeid },
        { header: c.name, cell: (row) => row.custname },
        { header: c.mobile, cell: (row) => row.mobileno },
        { header: c.startDate, cell: (row) => formatSchemeDate(row.startdt) },
        { header: c.amount, numeric: true, total: true, cell: (row) => formatRupees(row.amount) },
        { header: c.status, cell: (row) => schemeStatusLabel(row.matyn) },
      ]}
      rows={rows}
      rowKey={(row) => row.schemeid}
      total={{ label: texts.total, value: formatRupees(sumAmounts(rows)) }}
    />
  );
}
