import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import {
  formatMonthName,
  formatRupees,
  PORTAL_TEXTS,
  UI_TEXTS,
  type RecordedMode,
} from '@kanak/contract';
import { useShopBranding } from './branding';
import { formatDate, formatGrams } from './format';

const texts = PORTAL_TEXTS.receipt;

/** One installment's receipt, as a passbook row or the payment's answer gives it. */
export interface ReceiptView {
  receiptNo: string;
  date: string;
  amount: number;
  mode: RecordedMode;
  schemeid: number;
  installmentNo?: number;
  installments?: number;
  /** The month (YYYY-MM) it is for. */
  forMonth?: string | undefined;
  /** Paid online: the gateway's payment id. */
  paymentId?: string | undefined;
  custname?: string;
  /** A weight scheme's: the day's 22K rate (rupees a gram) and the gold it bought (grams). */
  rate?: number | null;
  grams?: number | null;
  gstin?: string | null;
  branch?: { address: string; phone: string } | null;
}

/**
 * The printable receipt: the shop's name and address, then the installment. Printing shows it
 * alone (the portal's print styles hide the rest of the screen).
 */
export function Receipt({ receipt }: { receipt: ReceiptView }) {
  const shop = useShopBranding();
  const address = receipt.branch?.address ?? shop?.shopAddress;
  const phone = receipt.branch?.phone ?? shop?.shopPhone;
  const rows: [string, string][] = [
    [texts.receiptNo, receipt.receiptNo],
    [texts.date, formatDate(receipt.date)],
    ...(receipt.custname ? [[texts.customer, receipt.custname] as [string, string]] : []),
    [texts.scheme, String(receipt.schemeid)],
    ...(receipt.installmentNo && receipt.installments
      ? [
          [texts.installment, texts.installmentOf(receipt.installmentNo, receipt.installments)] as [
            string,
            string,
          ],
        ]
      : []),
    ...(receipt.forMonth
      ? [[texts.forMonth, formatMonthName(receipt.forMonth)] as [string, string]]
      : []),
    [texts.amount, formatRupees(receipt.amount)],
    [texts.mode, PORTAL_TEXTS.modes[receipt.mode] ?? receipt.mode],
    ...(receipt.paymentId ? [[texts.paymentId, receipt.paymentId] as [string, string]] : []),
    ...(receipt.rate != null && receipt.grams != null
      ? ([
          [texts.rate, texts.ratePerGram(formatRupees(receipt.rate))],
          [texts.gold, texts.grams(formatGrams(receipt.grams))],
        ] as [string, string][])
      : []),
    ...(receipt.gstin ? [[texts.gstin, receipt.gstin] as [string, string]] : []),
  ];
  return (
    <Box
      component="section"
      aria-label={texts.heading}
      className="portal-receipt"
      data-testid="portal-receipt"
      sx={{
        bgcolor: 'background.paper',
        border: '1px solid',
        borderColor: 'divider',
        borderRadius: 3,
        p: 2,
        mb: 2,
      }}
    >
      <Typography component="h2" variant="h5" sx={{ textAlign: 'center' }}>
        {shop?.companyName ?? UI_TEXTS.defaultBranding.companyName}
      </Typography>
      {address && phone && (
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          {UI_TEXTS.printAddress(address, phone)}
        </Typography>
      )}
      <Typography sx={{ textAlign: 'center', fontWeight: 700, mt: 1, mb: 1.5 }}>
        {texts.heading}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.75, m: 0 }}
      >
        {rows.map(([term, value]) => (
          <Box key={term} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {term}
            </Typography>
            <Typography
              component="dd"
              sx={{ m: 0, fontWeight: 600, textAlign: 'right', overflowWrap: 'anywhere' }}
            >
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

export function PrintButton() {
  return (
    <Button variant="contained" className="no-print" onClick={() => window.print()}>
      {texts.print}
    </Button>
  );
}
