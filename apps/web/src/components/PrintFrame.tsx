import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { UI_TEXTS, type Branch } from '@kanak/contract';
import { useBranding } from '../lib/branding';
import { useMe } from '../lib/me';

/** The branch a printout is from: the one given, else the signed-in staff member's. */
export function usePrintBranch(branch?: Branch | null): Branch | null {
  const { data: me } = useMe();
  return branch ?? me?.branch ?? null;
}

/**
 * The address and phone a printout carries: the given branch's (a receipt's, where it was
 * paid), else the signed-in staff member's branch, else the shop's address from branding.
 */
export function usePrintAddress(branch?: Branch | null): string | null {
  const { branding } = useBranding();
  const from = usePrintBranch(branch);
  if (from) return UI_TEXTS.printAddress(from.address, from.phone);
  return branding ? UI_TEXTS.printAddress(branding.shopAddress, branding.shopPhone) : null;
}

/** Cells of a printed table: ruled, black on white. */
export const PRINT_CELL_SX = {
  border: '1px solid #999',
  padding: '4px 8px',
  textAlign: 'left',
  verticalAlign: 'top',
} as const;
export const PRINT_NUMBER_SX = {
  ...PRINT_CELL_SX,
  textAlign: 'right',
  whiteSpace: 'nowrap',
} as const;

/** What a printout is: its first line bold (the title), then the filter it was made for. */
export function PrintLines({ lines }: { lines: readonly ReactNode[] }) {
  return lines.map((line, i) => (
    <Typography key={i} sx={{ mt: i === 0 ? 2 : 0, fontWeight: i === 0 ? 700 : 400 }}>
      {line}
    </Typography>
  ));
}

export interface PrintColumn<Row> {
  key: string;
  header: ReactNode;
  /** Right-aligned, on one line (amounts, points). */
  numeric?: boolean;
  cell: (row: Row, index: number) => ReactNode;
}

/** A printout's ruled table: the columns' headers, one line per row, and `foot`'s rows. */
export function PrintTable<Row>({
  columns,
  rows,
  rowKey,
  foot,
}: {
  columns: readonly PrintColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The rows of its tfoot (totals). */
  foot: ReactNode;
}) {
  const sx = (column: PrintColumn<Row>) => (column.numeric ? PRINT_NUMBER_SX : PRINT_CELL_SX);
  return (
    <Box component="table">
      <thead>
        <tr>
          {columns.map((column) => (
            <Box component="th" key={column.key} sx={sx(column)}>
              {column.header}
            </Box>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <Box component="td" key={column.key} sx={sx(column)}>
                {column.cell(row, index)}
              </Box>
            ))}
          </tr>
        ))}
      </tbody>
      <Box component="tfoot" sx={{ fontWeight: 700 }}>
        {foot}
      </Box>
    </Box>
  );
}

/**
 * A printout: hidden on screen and the only thing on paper (the screens mark their controls
 * no-print). Opens with the shop's heading and the branch's address and mobile line.
 */
export function PrintFrame({ testId, children }: { testId: string; children: ReactNode }) {
  const { branding } = useBranding();
  const address = usePrintAddress();
  return (
    <Box
      data-testid={testId}
      sx={{
        display: 'none',
        '@media print': { display: 'block' },
        color: '#000',
        fontSize: 12,
        '& table': { width: '100%', borderCollapse: 'collapse', mt: 2 },
        '& thead': { display: 'table-header-group' },
        '& tr': { breakInside: 'avoid' },
      }}
    >
      <Box sx={{ textAlign: 'center' }}>
        {branding?.logoUrl && (
          <Box component="img" src={branding.logoUrl} alt="" sx={{ height: 48, mb: 0.5 }} />
        )}
        <Typography component="h2" variant="h4" sx={{ color: '#000' }}>
          {branding?.companyName ?? UI_TEXTS.productName}
        </Typography>
        {address && <Typography>{address}</Typography>}
      </Box>
      {children}
    </Box>
  );
}
