import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { SCHEME_TEXTS, type PaymentMode } from '@kanak/contract';
import { DateField } from '../../components/DateField';
import { PaymentModeFields } from '../../components/PaymentModeFields';
import { SubmitButton } from '../../components/SubmitButton';
import { BackdateReasonField, useBackdating } from './BackdateReason';

const texts = SCHEME_TEXTS.installment;

export interface PaymentValues {
  date: string;
  mode: PaymentMode;
  reference: string;
  /** The owner's reason for a date further back than staff may date a payment. */
  backdateReason?: string;
}

interface PaymentDialogProps {
  title: string;
  /** A line above the fields. */
  text?: string;
  submitLabel: string;
  /** Today in the store's time zone: the default and the latest date. */
  today: string;
  /** The earliest date (the scheme's start). */
  min?: string;
  pending: boolean;
  /** A refusal from the server, shown in the dialog so the user can correct the entry. */
  error: string | null;
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
  pending,
  error,
  onSubmit,
  onClose,
}: PaymentDialogProps) {
  const [date, setDate] = useState(today);
  const [mode, setMode] = useState<PaymentMode>('cash');
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const backdating = useBackdating(today);
  const needsReason = backdating.needsReason(date);
  const ready = date !== '' && (!needsReason || backdating.reasonGiven(reason));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || pending) return;
    onSubmit({
      date,
      mode,
      reference: reference.trim(),
      ...(needsReason ? { backdateReason: reason.trim() } : {}),
    });
  };

  return (
    <Dialog open onClose={pending ? undefined : onClose} fullWidth maxWidth="xs">
      <form noValidate onSubmit={submit}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {text && <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>}
          <Stack spacing={2} sx={{ pt: 1 }}>
            <DateField
              label={texts.date}
              name="date"
              value={date}
              onChange={setDate}
              min={backdating.min(min)}
              max={today}
              required
            />
            {needsReason && (
              <BackdateReasonField
                value={reason}
                onChange={setReason}
                earliest={backdating.earliest}
              />
            )}
            <PaymentModeFields
              mode={mode}
              onModeChange={setMode}
              reference={reference}
              onReferenceChange={setReference}
            />
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button type="button" onClick={onClose} disabled={pending}>
            {texts.cancel}
          </Button>
          <SubmitButton pending={pending} pendingLabel={texts.saving} disabled={!ready}>
            {submitLabel}
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
