import TextField from '@mui/material/TextField';
import {
  PAYMENT_MODE_LABELS,
  PAYMENT_MODES,
  SCHEME_TEXTS,
  type PaymentMode,
} from '@kanak/contract';
import { SelectField } from './SelectField';

const texts = SCHEME_TEXTS.installment;
const modes = PAYMENT_MODES.map((option) => ({
  value: option,
  label: PAYMENT_MODE_LABELS[option],
}));

/**
 * How an installment is paid at the counter: its mode, and the reference (UTR, card slip,
 * cheque number) that goes with it. Scheme Statement's dialog and the counter home's share it.
 */
export function PaymentModeFields({
  mode,
  onModeChange,
  reference,
  onReferenceChange,
}: {
  mode: PaymentMode;
  onModeChange: (mode: PaymentMode) => void;
  reference: string;
  onReferenceChange: (reference: string) => void;
}) {
  return (
    <>
      <SelectField
        label={texts.mode}
        name="mode"
        value={mode}
        options={modes}
        onChange={onModeChange}
      />
      <TextField
        label={texts.reference}
        name="reference"
        value={reference}
        onChange={(event) => onReferenceChange(event.target.value)}
        helperText={texts.referenceHelp}
        autoComplete="off"
        fullWidth
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
    </>
  );
}
