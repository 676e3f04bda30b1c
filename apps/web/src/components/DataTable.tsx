import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { Cells, cellOf, clickProps, type DataColumn, type RowClick } from './dataTableParts';
import {
  bodySx,
  cardLabel,
  cellSx,
  clickableRowSx,
  fixedGroupSx,
  headerSx,
  phoneCardsSx,
} from './dataTableStyles';

export { TwoLines, type DataColumn, type RowClick } from './dataTableParts';
export { visuallyHidden } from './dataTableStyles';

export interface DataTableFooterRow {
  key: string;
  /** One cell per column. */
  cells: ReactNode[];
}

export interface DataTableProps<Row> {
  /** The table's accessible name. */
  label: string;
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The body scrolls inside this height (px); header and footer stay put. */
  bodyHeight: number;
  /**
   * Narrower screens scroll the table sideways: the columns' least widths, plus 16 px for the
   * body's scrollbar gutter and the border.
   */
  minWidth: number;
  /** Shown in the body when there are no rows. */
  emptyText: string;
  /** Rows under the body (totals). */
  footer?: readonly DataTableFooterRow[];
  loading?: boolean;
  /** The loading bar's accessible name. */
  loadingLabel?: string;
  /** Set when the rows could not be loaded: said above the table. */
  loadError?: string | false;
  /** Rows that open something when clicked (or Enter / Space when focused), e.g. a statement. */
  rowClick?: RowClick<Row>;
}

/**
 * A striped table whose body scrolls in a fixed height between a fixed header and footer
 * (the points statement, the scheme summary). Built on a CSS grid with ARIA table
 * roles, so that only the body scrolls while the columns stay aligned. Rows may open
 * something when clicked (`rowClick`: the summary's rows open their scheme's statement).
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  bodyHeight,
  minWidth,
  emptyText,
  footer = [],
  loading = false,
  loadingLabel = label,
  loadError = false,
  rowClick,
}: DataTableProps<Row>) {
  const gridTemplateColumns = columns.map((column) => column.width).join(' ');
  const rowSx = { display: 'grid', gridTemplateColumns } as const;
  const headerLabel = (column: DataColumn<Row>) => cardLabel(column.header);

  return (
    <>
      {loadError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {loadError}
        </Alert>
      )}
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
              ...fixedGroupSx,
              bgcolor: 'primary.dark',
              color: 'primary.contrastText',
              ...phoneCardsSx.header,
            }}
          >
            <Box role="row" sx={rowSx}>
              {columns.map((column) => (
                <Box key={column.key} role="columnheader" sx={{ ...cellOf(column), ...headerSx }}>
                  {column.header}
                </Box>
              ))}
            </Box>
          </Box>
          {/* Keyboard users can scroll the body too. */}
          <Box role="rowgroup" tabIndex={0} sx={{ height: bodyHeight, ...bodySx }}>
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
              rows.map((row, index) => {
                const click = clickProps(row, rowClick);
                return (
                  <Box
                    key={rowKey(row)}
                    role="row"
                    {...click}
                    sx={{ ...rowSx, ...phoneCardsSx.row, ...(click.onClick ? clickableRowSx : {}) }}
                  >
                    <Cells
                      columns={columns}
                      contents={columns.map((column) => column.cell(row, index))}
                      label={headerLabel}
                    />
                  </Box>
                );
              })
            )}
          </Box>
          {footer.length > 0 && (
            <Box
              role="rowgroup"
              sx={{
                ...fixedGroupSx,
                borderTop: 2,
                borderColor: 'secondary.main',
                fontWeight: 600,
                ...phoneCardsSx.footer,
              }}
            >
              {footer.map((footerRow) => (
                <Box key={footerRow.key} role="row" sx={{ ...rowSx, ...phoneCardsSx.row }}>
                  <Cells
                    columns={columns}
                    contents={footerRow.cells}
                    // Totals name their figures' columns; the row's own name needs none.
                    label={(column) => (column.align === 'right' ? headerLabel(column) : undefined)}
                    // A total's label wraps between its words ("Points / redeemed") only.
                    cellSx={{ overflowWrap: 'normal' }}
                  />
                </Box>
              ))}
            </Box>
          )}
        </Box>
      </Box>
    </>
  );
}
