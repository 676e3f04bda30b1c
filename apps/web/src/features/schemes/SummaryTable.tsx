import type { KeyboardEvent, ReactNode } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { LIMITS } from '@kanak/contract';
import { cardLabel, isEmptyCell, phoneCardsSx } from '../../components/DataTable';

export interface SummaryColumn<Row> {
  key: string;
  header: ReactNode;
  /** A CSS grid track. */
  width: string;
  align?: 'left' | 'right';
  cell: (row: Row) => ReactNode;
}

interface SummaryTableProps<Row> {
  label: string;
  columns: readonly SummaryColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  emptyText: string;
  /** One cell per column, under the body. */
  footer: ReactNode[];
  loading: boolean;
  loadingLabel: string;
  /** Rows that open something when clicked (or Enter / Space when focused). */
  isClickable: (row: Row) => boolean;
  onRowClick: (row: Row) => void;
  /** The accessible hint of a clickable row. */
  clickHint: (row: Row) => string;
}

const cellSx = {
  px: 1.5,
  py: 1,
  minWidth: 0,
  overflowWrap: 'anywhere',
  display: 'flex',
  alignItems: 'center',
} as const;

/**
 * The scheme summary's table: body 280 px tall scrolling between a fixed header
 * and footer, at least 700 px wide (narrow screens scroll it sideways), striped rows. Unlike the
 * shared DataTable its rows can be clicked: a row opens its scheme's statement.
 */
export function SummaryTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  emptyText,
  footer,
  loading,
  loadingLabel,
  isClickable,
  onRowClick,
  clickHint,
}: SummaryTableProps<Row>) {
  const minWidth = LIMITS.summaryTableMinWidthPx;
  const rowSx = {
    display: 'grid',
    gridTemplateColumns: columns.map((column) => column.width).join(' '),
  } as const;
  const fixedSx = { overflowY: 'hidden', scrollbarGutter: 'stable' } as const;
  const cell = (column: SummaryColumn<Row>) => ({
    ...cellSx,
    justifyContent: column.align === 'right' ? 'flex-end' : 'flex-start',
    textAlign: column.align ?? 'left',
  });
  const onKey = (row: Row) => (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick(row);
    }
  };

  return (
    <Box
      sx={{
        overflowX: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
        bgcolor: 'background.paper',
      }}
    >
      <Box sx={{ height: 4, minWidth, ...phoneCardsSx.table }}>
        {loading && <LinearProgress color="secondary" aria-label={loadingLabel} />}
      </Box>
      <Box
        role="table"
        aria-label={label}
        aria-busy={loading || undefined}
        sx={{ minWidth, ...phoneCardsSx.table }}
      >
        <Box
          role="rowgroup"
          sx={{
            ...fixedSx,
            bgcolor: 'primary.dark',
            color: 'primary.contrastText',
            ...phoneCardsSx.header,
          }}
        >
          <Box role="row" sx={rowSx}>
            {columns.map((column) => (
              <Box key={column.key} role="columnheader" sx={{ ...cell(column), fontWeight: 600 }}>
                {column.header}
              </Box>
            ))}
          </Box>
        </Box>
        <Box
          role="rowgroup"
          data-testid="summary-body"
          sx={{
            height: LIMITS.summaryTableBodyHeightPx,
            overflowY: 'auto',
            scrollbarGutter: 'stable',
            '& > [role="row"]:nth-of-type(even)': { bgcolor: 'rgba(201, 162, 39, 0.1)' },
            '& > [role="row"]': { borderBottom: 1, borderColor: 'divider' },
            ...phoneCardsSx.body,
          }}
        >
          {rows.length === 0 ? (
            <Box role="row" sx={rowSx}>
              <Box
                role="cell"
                sx={{ ...cellSx, gridColumn: '1 / -1', py: 4, justifyContent: 'center' }}
              >
                {loading ? null : emptyText}
              </Box>
            </Box>
          ) : (
            rows.map((row) => {
              const clickable = isClickable(row);
              return (
                <Box
                  key={rowKey(row)}
                  role="row"
                  tabIndex={clickable ? 0 : undefined}
                  aria-haspopup={clickable ? 'dialog' : undefined}
                  title={clickable ? clickHint(row) : undefined}
                  onClick={clickable ? () => onRowClick(row) : undefined}
                  onKeyDown={clickable ? onKey(row) : undefined}
                  sx={{
                    ...rowSx,
                    ...phoneCardsSx.row,
                    ...(clickable && {
                      cursor: 'pointer',
                      '&:hover': { bgcolor: 'rgba(123, 30, 43, 0.08) !important' },
                      '&:focus-visible': {
                        outline: 2,
                        outlineColor: 'primary.main',
                        outlineOffset: -2,
                      },
                    }),
                  }}
                >
                  {columns.map((column) => (
                    <Box
                      key={column.key}
                      role="cell"
                      data-label={cardLabel(column.header)}
                      sx={{ ...cell(column), ...phoneCardsSx.cell }}
                    >
                      {column.cell(row)}
                    </Box>
                  ))}
                </Box>
              );
            })
          )}
        </Box>
        <Box
          role="rowgroup"
          sx={{ ...fixedSx, borderTop: 2, borderColor: 'secondary.main', ...phoneCardsSx.footer }}
        >
          <Box role="row" sx={{ ...rowSx, fontWeight: 600, ...phoneCardsSx.row }}>
            {columns.map((column, i) => (
              <Box
                key={column.key}
                role="cell"
                data-label={column.align === 'right' ? cardLabel(column.header) : undefined}
                data-empty={isEmptyCell(footer[i]) || undefined}
                sx={{ ...cell(column), ...phoneCardsSx.cell }}
              >
                {isEmptyCell(footer[i]) ? null : footer[i]}
              </Box>
            ))}
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
