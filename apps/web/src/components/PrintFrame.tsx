import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';
import { useBranding } from '../lib/branding';

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

/**
 * A printout: hidden on screen and the only thing on paper (the screens mark their controls
 * no-print). Opens with the shop's heading and its address and mobile line.
 */
export function PrintFrame({ testId, children }: { testId: string; children: ReactNode }) {
  const { branding } = useBranding();
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
        <Typography component="h2" variant="h4" sx={{ color: '#000' }}>
          {branding?.companyName ?? UI_TEXTS.productName}
        </Typography>
        {branding && (
          <Typography>{UI_TEXTS.printAddress(branding.shopAddress, branding.shopPhone)}</Typography>
        )}
      </Box>
      {children}
    </Box>
  );
}
