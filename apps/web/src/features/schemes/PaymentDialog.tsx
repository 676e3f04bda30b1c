import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useController } from 'react-hook-form';
import { z } from 'zod';
import { SCHEME_TEXTS, activateSchemeRequest } from '@kanak/contract';
import {
  ChangeError,
  ChangeForm,
  useSchemaForm,
  type FormChange,
} from '../../components/ChangeForm';
import { DateField } from '../../components/DateField';
import { PaymentModeFields } from '../../components/PaymentModeFields';
import { SubmitButton } from '../../components/SubmitButton';
import { BackdateReasonField, useBackdating } from './BackdateReason';

const texts = SCHEME_TEXTS.installment;

/**
 * A payment's date, mode and reference as the request checks them. The reason is held as typed:
 * it is asked for (and sent) only while the date needs one, and the button waits for one long
 * enough, so one typed for a date since changed neither blocks nor goes with the payment.
 */
const paymentForm = activateSchemeRequest
  .pick({ date: true, mode: true, reference: true })
  .extend({ backdateReason: z.string() });
type PaymentInput = z.output<typeof paymentForm>;

export type PaymentValues = Omit<PaymentInput, 'backdateReason'> & {
  /** The owner's reason for a date further back than staff may date a payment. */
  backdateReason?: string;
};

interface PaymentDialogProps {
  title: string;
  /** A line above the fields. */
  text?: string;
  submitLabel: string;
  /** Today in the store's time zone: the default and the latest date. */
  today: string;
  /** The earliest date (the scheme's start). */
  min?: string;
  /** The change sending the payment: its pending state, and its refusal shown in the dialog. */
  change: FormChange;
  onSubmit: (values: PaymentValues) => void;
  onClose: () => void;
}

/**
 * A payment into a scheme: date (default today), mode and an optional reference. Used for the
 * activation (first installment) and for each later installment. Mounted while open.
 */
export function PaymentDialog({
  title,
  text,
  submitLabel,
  today,
  min,
  change,
  onSubmit,
  onClose,
}: PaymentDialogProps) {
  const form = useSchemaForm(paymentForm, {
    date: today,
    mode: 'cash',
    reference: '',
    backdateReason: '',
  });
  const { control } = form;
  const { field: date } = useController({ control, name: 'date' });
  const { field: mode } = useController({ control, name: 'mode' });
  const { field: reference } = useController({ control, name: 'reference' });
  const { field: reason } = useController({ control, name: 'backdateReason' });
  const backdating = useBackdating(today);
  const needsReason = backdating.needsReason(date.value);
  const ready = date.value !== '' && (!needsReason || backdating.reasonGiven(reason.value));

  const submit = ({ backdateReason, ...payment }: PaymentInput) => {
    if (!ready) return;
    onSubmit(needsReason ? { ...payment, backdateReason: backdateReason.trim() } : payment);
  };

  return (
    <Dialog open onClose={change.isPending ? undefined : onClose} fullWidth maxWidth="xs">
      <ChangeForm form={form} change={change} onSubmit={submit}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {text && <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>}
          <Stack spacing={2} sx={{ pt: 1 }}>
            <DateField
              label={texts.date}
              name="date"
              value={date.value}
              onChange={date.onChange}
              min={backdating.min(min)}
              max={today}
              required
            />
            {needsReason && (
              <BackdateReasonField
                value={reason.value}
                onChange={reason.onChange}
                earliest={backdating.earliest}
              />
            )}
            <PaymentModeFields
              mode={mode.value}
              onModeChange={mode.onChange}
              reference={reference.value ?? ''}
              onReferenceChange={reference.onChange}
            />
            <ChangeError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button type="button" onClick={onClose} disabled={change.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pendingLabel={texts.saving} disabled={!ready}>
            {submitLabel}
          </SubmitButton>
        </DialogActions>
      </ChangeForm>
    </Dialog>
  );
}
