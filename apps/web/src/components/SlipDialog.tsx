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
import { SLIP_TEXTS, UI_TEXTS, type Branch, type ReceiptPaper } from '@kanak/contract';
import { useBranding } from '../lib/branding';
import { useMe } from '../lib/me';
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

/**
 * On a counter's 80 mm thermal roll: the page is the roll's width and as long as the slip, the
 * text smaller, each term above its value so that neither is cut.
 */
const rollPrintStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        '@page': { size: '80mm auto', margin: '3mm' },
        [`body.${PRINTING} .${SLIP} .MuiDialog-paper`]: { width: '74mm !important', fontSize: 11 },
        [`body.${PRINTING} .${SLIP} .MuiDialogContent-root`]: { padding: 0 },
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
  printOnOpen = false,
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
  /**
   * Printed at once (a "Save and print"): once the dialog has faded in, so that the page
   * printed is not the half-transparent one of its first frames.
   */
  printOnOpen?: boolean;
  onClose: () => void;
}) {
  const { branding } = useBranding();
  const { data: me } = useMe();
  const address = usePrintAddress(branch);
  const company = branding?.companyName ?? UI_TEXTS.productName;
  // The printer is the counter's: the paper of the branch printing, whoever's slip it is.
  const paper: ReceiptPaper = (me?.branch ?? branch)?.receiptPaper ?? 'a4';
  const roll = paper === '80mm';
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="xs"
      className={SLIP}
      slotProps={{
        paper: { 'data-paper': paper } as object,
        ...(printOnOpen ? { transition: { onEntered: printSlip } } : {}),
      }}
    >
      {slipPrintStyles}
      {roll && rollPrintStyles}
      <DialogTitle>{title}</DialogTitle>
      {/* Focusable: a long slip scrolls on a small screen, and the keyboard must reach it. */}
      <DialogContent tabIndex={0}>
        {banner}
        <Box sx={{ textAlign: 'center', mb: 2 }}>
          {branding?.logoUrl && (
            <Box
              component="img"
              src={branding.logoUrl}
              alt=""
              sx={{ height: 40, maxWidth: '60%', objectFit: 'contain' }}
            />
          )}
          <Typography component="p" variant="h6">
            {company}
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
            gridTemplateColumns: roll ? '1fr' : 'auto 1fr',
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
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: roll ? '1fr' : '1fr 1fr',
            columnGap: 4,
            rowGap: 5,
            mt: 6,
            '& p': { borderTop: 1, borderColor: 'text.primary', pt: 0.5, m: 0 },
          }}
        >
          <Typography variant="body2">{SLIP_TEXTS.customerSignature}</Typography>
          <Typography variant="body2">{SLIP_TEXTS.shopSignature(company)}</Typography>
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
