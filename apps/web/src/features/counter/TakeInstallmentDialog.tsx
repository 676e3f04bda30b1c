import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import {
  COUNTER_HUB_TEXTS,
  COUNTER_TEXTS,
  formatMonthName,
  formatRupees,
  formatSlashDate,
  type CounterScheme,
  type PaymentMode,
} from '@kanak/contract';
import { PaymentModeFields } from '../../components/PaymentModeFields';
import { SubmitButton } from '../../components/SubmitButton';

const texts = COUNTER_HUB_TEXTS.dialog;

export interface TakenInstallment {
  mode: PaymentMode;
  reference: string;
}

/**
 * The due installment of one scheme, as the counter takes it: the amount, the month and today's
 * date as the server offered them, the mode (cash unless chosen) and an optional reference.
 * "Save and print" has the focus, so Enter takes it. Mounted while open.
 */
export function TakeInstallmentDialog({
  scheme,
  due,
  customer,
  today,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  scheme: CounterScheme;
  due: NonNullable<CounterScheme['due']>;
  customer: { custname: string; mobileno: string };
  today: string;
  pending: boolean;
  /** A refusal from the server, shown here so the cashier can choose another mode. */
  error: string | null;
  onSubmit: (values: TakenInstallment) => void;
  onClose: () => void;
}) {
  const [mode, setMode] = useState<PaymentMode>('cash');
  const [reference, setReference] = useState('');
  const month = formatMonthName(due.month);
  const facts: [string, string][] = [
    [texts.customer, COUNTER_TEXTS.chosen(customer.custname, customer.mobileno)],
    [texts.amount, formatRupees(scheme.amount)],
    [texts.month, due.advance ? texts.inAdvance(month) : month],
    [texts.date, formatSlashDate(today)],
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    onSubmit({ mode, reference: reference.trim() });
  };

  return (
    <Dialog open onClose={pending ? undefined : onClose} fullWidth maxWidth="xs">
      <form noValidate onSubmit={submit}>
        <DialogTitle>{texts.title(scheme.schemeid)}</DialogTitle>
        <DialogContent>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'auto minmax(0, 1fr)',
              columnGap: 2,
              rowGap: 0.5,
              mt: 0,
              mb: 2,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, fontWeight: 600, overflowWrap: 'anywhere' },
            }}
          >
            {facts.map(([term, value]) => (
              <Box key={term} sx={{ display: 'contents' }}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </Box>
            ))}
          </Box>
          <Stack spacing={2} sx={{ pt: 1 }}>
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
          <SubmitButton
            pending={pending}
            pendingLabel={texts.saving}
            startIcon={<PrintIcon />}
            autoFocus
          >
            {texts.save}
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
