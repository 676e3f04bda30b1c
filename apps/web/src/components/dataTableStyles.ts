import type { ReactNode } from 'react';

/** The look of a clickable row (one that opens something): the pointer, a tint, a focus ring. */
export const clickableRowSx = {
  cursor: 'pointer',
  '&:hover': { bgcolor: 'rgba(123, 30, 43, 0.08) !important' },
  '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
} as const;

// Dense, as a report is read: many columns must fit the counter's 1366 px beside the sidebar.
export const cellSx = {
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
export const headerSx = {
  fontWeight: 600,
  lineHeight: 1.25,
  overflowWrap: 'normal',
  wordBreak: 'normal',
  hyphens: 'manual',
  whiteSpace: 'normal',
} as const;

export const justify = { left: 'flex-start', right: 'flex-end', center: 'center' } as const;

/** Out of sight, still read by screen readers (e.g. the name of a column of edit buttons). */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Below this width the columns do not fit: each row becomes a card. */
const PHONE = '@media (max-width: 599.95px)';

/**
 * On a phone, rows as cards: each cell on its own line, its column's name (`data-label`) on
 * the left and the value on the right, so every amount and action is in view without
 * scrolling sideways. The header stays for screen readers, out of sight.
 */
export const phoneCardsSx = {
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

/** The scrolling body: striped rows, a focus ring, and every row on paper. */
export const bodySx = {
  overflowY: 'auto',
  scrollbarGutter: 'stable',
  '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
  '& > [role="row"]:nth-of-type(even)': { bgcolor: 'rgba(201, 162, 39, 0.1)' },
  '& > [role="row"]': { borderBottom: 1, borderColor: 'divider' },
  // On paper every row shows: there is no scrolling a printed page.
  '@media print': { height: 'auto', overflowY: 'visible' },
  ...phoneCardsSx.body,
} as const;

/** The header and footer reserve the body's scrollbar gutter, so the columns line up. */
export const fixedGroupSx = { overflowY: 'hidden', scrollbarGutter: 'stable' } as const;

/** A cell with nothing to show: no line of its own on a phone card. */
export const isEmptyCell = (content: ReactNode) =>
  content === '' || content === null || content === undefined || content === false;

/** A column's name for its cells on a phone card. */
export const cardLabel = (header: ReactNode): string | undefined =>
  typeof header === 'string' && header !== '' ? header : undefined;
