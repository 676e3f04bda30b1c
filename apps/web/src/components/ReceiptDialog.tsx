import Typography from '@mui/material/Typography';
import {
  PAYMENT_MODE_LABELS,
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  formatGrams,
  formatRupees,
  formatSchemeDate,
  type InstallmentReceipt,
} from '@kanak/contract';
import { SlipDialog } from './SlipDialog';
import { useBranding } from '../lib/branding';
import { monthInWords, rupeesInWords } from '../lib/rupees-in-words';

const texts = SCHEME_TEXTS.receipt;

/**
 * An installment's receipt: number, customer, scheme, date, the month it is for, amount (also
 * in words), mode, installment n of N and what has been paid in so far;
 * for a weight scheme the day's rate and the gold it bought; the shop's GSTIN when it has one.
 * A `duplicate` (reprinted later from the statement) says so, on screen and on paper.
 */
export function ReceiptDialog({
  receipt,
  duplicate = false,
  printOnOpen = false,
  onClose,
}: {
  receipt: InstallmentReceipt;
  duplicate?: boolean;
  /** Printed as soon as it opens: the receipt of a "Save and print". */
  printOnOpen?: boolean;
  onClose: () => void;
}) {
  const { branding } = useBranding();
  // A reprint from the statement carries no GSTIN of its own: the shop's is the same.
  const gstin = receipt.gstin ?? branding?.gstin;
  const lines: [string, string][] = [
    [texts.receiptNo, receipt.receiptNo],
    [texts.customer, texts.customerValue(receipt.custname, receipt.mobileno)],
    [texts.scheme, texts.schemeValue(receipt.schemeid)],
    [texts.date, formatSchemeDate(receipt.date)],
    [texts.forMonth, monthInWords(receipt.forMonth)],
    [texts.amount, formatRupees(receipt.amount)],
    [texts.amountInWords, rupeesInWords(receipt.amount)],
    [texts.mode, PAYMENT_MODE_LABELS[receipt.mode] ?? receipt.mode],
    ...(receipt.reference ? ([[texts.reference, receipt.reference]] as [string, string][]) : []),
    [texts.installment, texts.installmentValue(receipt.installmentNo, receipt.installments)],
    [texts.paidSoFar, formatRupees(receipt.paidSoFar)],
  ];
  if (receipt.rate22k != null && receipt.mg != null) {
    lines.push(
      [texts.rate, texts.rateValue(formatRupees(receipt.rate22k))],
      [texts.gold, SCHEME_PLAN_TEXTS.grams(formatGrams(receipt.mg))],
    );
  }
  if (gstin) lines.push([texts.gstin, texts.gstinValue(gstin, receipt.branch?.state)]);

  return (
    <SlipDialog
      title={texts.title(receipt.receiptNo)}
      lines={lines}
      // The branch that took the payment: its address, wherever the receipt is reprinted.
      branch={receipt.branch}
      banner={
        duplicate && (
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
        )
      }
      closeLabel={texts.close}
      printLabel={texts.print}
      printOnOpen={printOnOpen}
      onClose={onClose}
    />
  );
}
