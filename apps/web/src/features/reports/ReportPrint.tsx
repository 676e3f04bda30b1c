import Box from '@mui/material/Box';
import { REPORT_TEXTS } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import {
  PRINT_CELL_SX,
  PRINT_NUMBER_SX,
  PrintFrame,
  PrintLines,
  PrintTable,
} from '../../components/PrintFrame';
import type { ReportFooterRow } from './reportParts';

interface ReportPrintProps<Row> {
  testId: string;
  /** The report's title, then what it was asked for (dates, branch) and its counts. */
  lines: string[];
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  footer: readonly ReportFooterRow[];
  /** How many rows the report has in all, when the printout holds fewer. */
  total: number;
}

/**
 * A report on paper: hidden on screen, the only thing printed (the screen's controls are
 * no-print). The same columns as on screen, ruled, with the totals under their columns.
 */
export function ReportPrint<Row>({
  testId,
  lines,
  columns,
  rows,
  rowKey,
  footer,
  total,
}: ReportPrintProps<Row>) {
  const sx = (column: DataColumn<Row>) =>
    column.align === 'right' ? PRINT_NUMBER_SX : PRINT_CELL_SX;
  return (
    <PrintFrame testId={testId}>
      <PrintLines
        lines={total > rows.length ? [...lines, REPORT_TEXTS.printPart(rows.length, total)] : lines}
      />
      <PrintTable
        columns={columns.map((column) => ({ ...column, numeric: column.align === 'right' }))}
        rows={rows}
        rowKey={rowKey}
        foot={footer.map((footerRow) => (
          <tr key={footerRow.key}>
            {columns.map((column) => (
              <Box component="td" key={column.key} sx={sx(column)}>
                {footerRow.cells[column.key]}
              </Box>
            ))}
          </tr>
        ))}
      />
    </PrintFrame>
  );
}
