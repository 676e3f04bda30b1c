import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import GlobalStyles from '@mui/material/GlobalStyles';
import Typography from '@mui/material/Typography';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import {
  PAYMENT_MODE_LABELS,
  SCHEME_TEXTS,
  UI_TEXTS,
  formatRupees,
  formatSchemeDate,
  type InstallmentReceipt,
} from '@kanak/contract';
import { usePrintAddress } from '../../components/PrintFrame';
import { useBranding } from '../../lib/branding';

const texts = SCHEME_TEXTS.receipt;
const PRINTING = 'kanak-print-receipt';

/** While a receipt prints, the page behind it is left out: only the receipt is on paper. */
const receiptPrintStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        [`body.${PRINTING} > *:not(.scheme-receipt)`]: { display: 'none !important' },
        [`body.${PRINTING} .scheme-receipt`]: { position: 'static !important' },
        [`body.${PRINTING} .scheme-receipt .MuiBackdrop-root`]: { display: 'none' },
        [`body.${PRINTING} .scheme-receipt .MuiDialog-container`]: {
          display: 'block',
          height: 'auto',
        },
        [`body.${PRINTING} .scheme-receipt .MuiDialog-paper`]: {
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

/** Prints the open receipt alone. */
export function printReceipt() {
  document.body.classList.add(PRINTING);
  const done = () => document.body.classList.remove(PRINTING);
  window.addEventListener('afterprint', done, { once: true });
  window.print();
  // Browsers whose print() does not block, or that never send afterprint.
  window.setTimeout(done, 1000);
}

/**
 * An installment's receipt: number, customer, scheme, date, amount, mode, installment n of N.
 * A `duplicate` (reprinted later from the statement) says so, on screen and on paper.
 */
export function ReceiptDialog({
  receipt,
  duplicate = false,
  onClose,
}: {
  receipt: InstallmentReceipt;
  duplicate?: boolean;
  onClose: () => void;
}) {
  const { branding } = useBranding();
  // The branch that took the payment: its address, wherever the receipt is reprinted.
  const address = usePrintAddress(receipt.branch);
  const lines: [string, string][] = [
    [texts.receiptNo, receipt.receiptNo],
    [texts.customer, texts.customerValue(receipt.custname, receipt.mobileno)],
    [texts.scheme, texts.schemeValue(receipt.schemeid)],
    [texts.date, formatSchemeDate(receipt.date)],
    [texts.amount, formatRupees(receipt.amount)],
    [texts.mode, PAYMENT_MODE_LABELS[receipt.mode] ?? receipt.mode],
    ...(receipt.reference ? ([[texts.reference, receipt.reference]] as [string, string][]) : []),
    [texts.installment, texts.installmentValue(receipt.installmentNo, receipt.installments)],
  ];

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" className="scheme-receipt">
      {receiptPrintStyles}
      <DialogTitle>{texts.title(receipt.receiptNo)}</DialogTitle>
      <DialogContent>
        {duplicate && (
          <Typography
            component="p"
            variant="h6"
            data-testid="receipt-duplicate"
            sx={{
              textAlign: 'center',
              fontWeight: 700,
              letterSpacing: 4,
              border: 2,
              borderColor: 'text.primary',
              py: 0.5,
              mb: 2,
            }}
          >
            {texts.duplicate}
          </Typography>
        )}
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
        <Button onClick={onClose}>{texts.close}</Button>
        <Button variant="contained" startIcon={<PrintIcon />} onClick={printReceipt}>
          {texts.print}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
