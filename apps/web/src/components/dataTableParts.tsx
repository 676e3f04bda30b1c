import type { KeyboardEvent, ReactNode } from 'react';
import Box from '@mui/material/Box';
import { cellSx, isEmptyCell, justify, phoneCardsSx } from './dataTableStyles';

export interface DataColumn<Row> {
  key: string;
  header: ReactNode;
  /** A CSS grid track, e.g. `48px` or `minmax(0, 2fr)`. */
  width: string;
  align?: 'left' | 'right' | 'center';
  /** Keep the cell on one line (dates, amounts). */
  nowrap?: boolean;
  cell: (row: Row, index: number) => ReactNode;
}

export interface RowClick<Row> {
  /** Which rows open something; every row when left out. */
  isClickable?: (row: Row) => boolean;
  onClick: (row: Row) => void;
  /** The accessible hint of a clickable row. */
  hint: (row: Row) => string;
}

/**
 * Two facts in one cell, the second under the first ("24/11/2026" over "10:05"): a narrow screen
 * fits more columns so. A screen reader, and the cell's text, read them with a space between.
 */
export function TwoLines({ first, second }: { first: ReactNode; second: ReactNode }) {
  return (
    <Box component="span">
      {first}{' '}
      <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
        {second}
      </Box>
    </Box>
  );
}

/** The props that make a row open something by click, Enter or Space. */
export function clickProps<Row>(row: Row, rowClick: RowClick<Row> | undefined) {
  if (!rowClick || !(rowClick.isClickable?.(row) ?? true)) return {};
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      rowClick.onClick(row);
    }
  };
  return {
    tabIndex: 0,
    'aria-haspopup': 'dialog' as const,
    title: rowClick.hint(row),
    onClick: () => rowClick.onClick(row),
    onKeyDown,
  };
}

/** A column's cells: aligned as the column says, on one line when it says so. */
export const cellOf = <Row,>(column: DataColumn<Row>) => ({
  ...cellSx,
  justifyContent: justify[column.align ?? 'left'],
  textAlign: column.align ?? 'left',
  ...(column.nowrap ? { whiteSpace: 'nowrap', overflowWrap: 'normal' } : {}),
});

/**
 * One row of cells. Each names its column for a phone's card (`label`), and one with nothing
 * in it takes no line there.
 */
export function Cells<Row>({
  columns,
  contents,
  label,
  cellSx: more,
}: {
  columns: readonly DataColumn<Row>[];
  contents: readonly ReactNode[];
  label: (column: DataColumn<Row>) => string | undefined;
  cellSx?: object;
}) {
  return columns.map((column, i) => (
    <Box
      key={column.key}
      role="cell"
      data-label={label(column)}
      data-empty={isEmptyCell(contents[i]) || undefined}
      sx={{ ...cellOf(column), ...more, ...phoneCardsSx.cell }}
    >
      {isEmptyCell(contents[i]) ? null : contents[i]}
    </Box>
  ));
}
