import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import GlobalStyles from '@mui/material/GlobalStyles';
import Typography from '@mui/material/Typography';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { UI_TEXTS, type Branch } from '@kanak/contract';
import { useBranding } from '../lib/branding';
import { usePrintAddress } from './PrintFrame';

const PRINTING = 'kanak-print-receipt';
const SLIP = 'kanak-slip';

/** While a slip prints, the page behind it is left out: only the slip is on paper. */
const slipPrintStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        [`body.${PRINTING} > *:not(.${SLIP})`]: { display: 'none !important' },
        [`body.${PRINTING} .${SLIP}`]: { position: 'static !important' },
        [`body.${PRINTING} .${SLIP} .MuiBackdrop-root`]: { display: 'none' },
        [`body.${PRINTING} .${SLIP} .MuiDialog-container`]: {
          display: 'block',
          height: 'auto',
        },
        [`body.${PRINTING} .${SLIP} .MuiDialog-paper`]: {
          boxShadow: 'none !important',
          margin: 0,
          maxWidth: 'none',
          width: '100%',
          maxHeight: 'none',
        },
      },
    }}
  />
);

/** Prints the open slip alone. */
export function printSlip() {
  document.body.classList.add(PRINTING);
  const done = () => document.body.classList.remove(PRINTING);
  window.addEventListener('afterprint', done, { once: true });
  window.print();
  // Browsers whose print() does not block, or that never send afterprint.
  window.setTimeout(done, 1000);
}

/**
 * A slip handed to the customer (an installment's receipt, a redemption): the shop's heading
 * and the branch's address, then what was done, term by term, on screen and on paper alike.
 */
export function SlipDialog({
  title,
  lines,
  branch,
  banner,
  closeLabel,
  printLabel,
  onClose,
}: {
  title: string;
  lines: readonly (readonly [string, string])[];
  /** The branch where it was done; else the signed-in staff member's. */
  branch?: Branch | null;
  /** Above the heading (a reprint's DUPLICATE mark). */
  banner?: ReactNode;
  closeLabel: string;
  printLabel: string;
  onClose: () => void;
}) {
  const { branding } = useBranding();
  const address = usePrintAddress(branch);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" className={SLIP}>
      {slipPrintStyles}
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {banner}
        <Box sx={{ textAlign: 'center', mb: 2 }}>
          <Typography component="p" variant="h6">
            {branding?.companyName ?? UI_TEXTS.productName}
          </Typography>
          {address && (
            <Typography variant="body2" color="text.secondary">
              {address}
            </Typography>
          )}
        </Box>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'auto 1fr',
            columnGap: 2,
            rowGap: 1,
            m: 0,
            '& dt': { color: 'text.secondary' },
            '& dd': { m: 0, fontWeight: 600 },
          }}
        >
          {lines.map(([term, value]) => (
            <Box key={term} sx={{ display: 'contents' }}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions className="no-print">
        <Button onClick={onClose}>{closeLabel}</Button>
        <Button variant="contained" startIcon={<PrintIcon />} onClick={printSlip}>
          {printLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
