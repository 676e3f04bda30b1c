import {
  LEDGER_TEXTS,
  formatRupees,
  formatSchemeDate,
  type CounterRedemptionAnswer,
} from '@kanak/contract';
import type { CustomerOption } from '../../components/CustomerSearch';
import { SlipDialog } from '../../components/SlipDialog';
import { formatPoints } from './pointsEntry';

const texts = LEDGER_TEXTS.redeem;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;

/** A redemption done: what the customer takes away. */
export interface Slip extends CounterRedemptionAnswer {
  customer: CustomerOption;
  invoiceNo: string;
  date: string;
}

/** The slip of a redemption, to print and hand over; `staff`: who took the points. */
export function RedeemSlip({
  slip,
  staff,
  onClose,
}: {
  slip: Slip;
  staff: string | undefined;
  onClose: () => void;
}) {
  return (
    <SlipDialog
      title={texts.slip.title}
      lines={[
        [texts.slip.customer, optionLabel(slip.customer)],
        [texts.slip.date, formatSchemeDate(slip.date)],
        [texts.slip.points, texts.slip.pointsValue(formatPoints(slip.points))],
        [texts.slip.value, formatRupees(slip.value)],
        [texts.slip.balance, texts.slip.pointsValue(formatPoints(slip.balance))],
        ...(slip.invoiceNo ? [[texts.slip.invoiceNo, slip.invoiceNo] as const] : []),
        ...(staff !== undefined ? [[texts.slip.staff, staff] as const] : []),
      ]}
      closeLabel={texts.slip.close}
      printLabel={texts.slip.print}
      onClose={onClose}
    />
  );
}
