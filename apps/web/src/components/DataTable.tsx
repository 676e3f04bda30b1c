import type { KeyboardEvent, ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';

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

export interface RowClick<Row> {
  /** Which rows open something; every row when left out. */
  isClickable?: (row: Row) => boolean;
  onClick: (row: Row) => void;
  /** The accessible hint of a clickable row. */
  hint: (row: Row) => string;
}

const clickableRowSx = {
  cursor: 'pointer',
  '&:hover': { bgcolor: 'rgba(123, 30, 43, 0.08) !important' },
  '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
} as const;

/** The props that make a row open something by click, Enter or Space. */
function clickProps<Row>(row: Row, rowClick: RowClick<Row> | undefined) {
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

// Dense, as a report is read: many columns must fit the counter's 1366 px beside the sidebar.
const cellSx = {
  px: 0.75,
  py: 0.75,
  minWidth: 0,
  fontSize: '0.875rem',
  lineHeight: 1.35,
  overflowWrap: 'anywhere',
  display: 'flex',
  alignItems: 'center',
} as const;

/**
 * A column's name wraps only between its words ("Maturity / date"), never inside one: its
 * column is made wide enough for its longest word.
 */
const headerSx = {
  fontWeight: 600,
  lineHeight: 1.25,
  overflowWrap: 'normal',
  wordBreak: 'normal',
  hyphens: 'manual',
  whiteSpace: 'normal',
} as const;

const justify = { left: 'flex-start', right: 'flex-end', center: 'center' } as const;

/** Out of sight, still read by screen readers (e.g. the name of a column of edit buttons). */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

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

/** Below this width the columns do not fit: each row becomes a card. */
const PHONE = '@media (max-width: 599.95px)';

/**
 * On a phone, rows as cards: each cell on its own line, its column's name (`data-label`) on
 * the left and the value on the right, so every amount and action is in view without
 * scrolling sideways. The header stays for screen readers, out of sight.
 */
const phoneCardsSx = {
  table: { [PHONE]: { minWidth: '0 !important' } },
  header: { [PHONE]: visuallyHidden },
  body: { [PHONE]: { height: 'auto !important', overflowY: 'visible', p: 1 } },
  footer: { [PHONE]: { p: 1, overflowY: 'visible' } },
  row: {
    [PHONE]: {
      display: 'block !important',
      border: 1,
      borderColor: 'divider',
      borderRadius: 2,
      mb: 1,
      py: 0.5,
      '&:last-of-type': { mb: 0 },
    },
  },
  cell: {
    [PHONE]: {
      justifyContent: 'space-between !important',
      textAlign: 'right !important',
      gap: 2,
      py: 0.5,
      '&[data-empty]': { display: 'none' },
      '&[data-label]::before': {
        content: 'attr(data-label)',
        color: 'text.secondary',
        fontWeight: 600,
        textAlign: 'left',
        flexShrink: 0,
      },
    },
  },
} as const;

/** A cell with nothing to show: no line of its own on a phone card. */
const isEmptyCell = (content: ReactNode) =>
  content === '' || content === null || content === undefined || content === false;

/** A column's name for its cells on a phone card. */
const cardLabel = (header: ReactNode): string | undefined =>
  typeof header === 'string' && header !== '' ? header : undefined;

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
  // The header and footer reserve the body's scrollbar gutter, so the columns line up.
  const fixedGroupSx = { overflowY: 'hidden', scrollbarGutter: 'stable' } as const;
  const cell = (column: DataColumn<Row>) => ({
    ...cellSx,
    justifyContent: justify[column.align ?? 'left'],
    textAlign: column.align ?? 'left',
    ...(column.nowrap ? { whiteSpace: 'nowrap', overflowWrap: 'normal' } : {}),
  });

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
                <Box key={column.key} role="columnheader" sx={{ ...cell(column), ...headerSx }}>
                  {column.header}
                </Box>
              ))}
            </Box>
          </Box>
          <Box
            role="rowgroup"
            // Keyboard users can scroll the body too.
            tabIndex={0}
            sx={{
              height: bodyHeight,
              overflowY: 'auto',
              scrollbarGutter: 'stable',
              '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
              '& > [role="row"]:nth-of-type(even)': { bgcolor: 'rgba(201, 162, 39, 0.1)' },
              '& > [role="row"]': { borderBottom: 1, borderColor: 'divider' },
              // On paper every row shows: there is no scrolling a printed page.
              '@media print': { height: 'auto', overflowY: 'visible' },
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
              rows.map((row, index) => {
                const click = clickProps(row, rowClick);
                return (
                  <Box
                    key={rowKey(row)}
                    role="row"
                    {...click}
                    sx={{ ...rowSx, ...phoneCardsSx.row, ...(click.onClick ? clickableRowSx : {}) }}
                  >
                    {columns.map((column) => {
                      const content = column.cell(row, index);
                      return (
                        <Box
                          key={column.key}
                          role="cell"
                          data-label={cardLabel(column.header)}
                          data-empty={isEmptyCell(content) || undefined}
                          sx={{ ...cell(column), ...phoneCardsSx.cell }}
                        >
                          {isEmptyCell(content) ? null : content}
                        </Box>
                      );
                    })}
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
                  {columns.map((column, i) => (
                    <Box
                      key={column.key}
                      role="cell"
                      // Totals name their figures' columns; the row's own name needs none.
                      data-label={column.align === 'right' ? cardLabel(column.header) : undefined}
                      data-empty={isEmptyCell(footerRow.cells[i]) || undefined}
                      // A total's label wraps between its words ("Points / redeemed") only.
                      sx={{ ...cell(column), overflowWrap: 'normal', ...phoneCardsSx.cell }}
                    >
                      {isEmptyCell(footerRow.cells[i]) ? null : footerRow.cells[i]}
                    </Box>
                  ))}
                </Box>
              ))}
            </Box>
          )}
        </Box>
      </Box>
    </>
  );
}
