import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { useController } from 'react-hook-form';
import type { z } from 'zod';
import {
  COUNTER_HUB_TEXTS,
  COUNTER_TEXTS,
  addInstallmentRequest,
  formatMonthName,
  formatRupees,
  formatSlashDate,
  type CounterScheme,
} from '@kanak/contract';
import {
  ChangeError,
  ChangeForm,
  useSchemaForm,
  type FormChange,
} from '../../components/ChangeForm';
import { PaymentModeFields } from '../../components/PaymentModeFields';
import { SubmitButton } from '../../components/SubmitButton';

const texts = COUNTER_HUB_TEXTS.dialog;

/** What the cashier chooses of the installment: the rest is the scheme's, the month and today. */
const takenForm = addInstallmentRequest.pick({ mode: true, reference: true });
export type TakenInstallment = z.output<typeof takenForm>;

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
  change,
  onSubmit,
  onClose,
}: {
  scheme: CounterScheme;
  due: NonNullable<CounterScheme['due']>;
  customer: { custname: string; mobileno: string };
  today: string;
  /** Its pending state, and a refusal shown here so the cashier can choose another mode. */
  change: FormChange;
  onSubmit: (values: TakenInstallment) => void;
  onClose: () => void;
}) {
  const form = useSchemaForm(takenForm, { mode: 'cash', reference: '' });
  const { field: mode } = useController({ control: form.control, name: 'mode' });
  const { field: reference } = useController({ control: form.control, name: 'reference' });
  const month = formatMonthName(due.month);
  const facts: [string, string][] = [
    [texts.customer, COUNTER_TEXTS.chosen(customer.custname, customer.mobileno)],
    [texts.amount, formatRupees(scheme.amount)],
    [texts.month, due.advance ? texts.inAdvance(month) : month],
    [texts.date, formatSlashDate(today)],
  ];

  return (
    <Dialog open onClose={change.isPending ? undefined : onClose} fullWidth maxWidth="xs">
      <ChangeForm form={form} change={change} onSubmit={onSubmit}>
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
          <SubmitButton pendingLabel={texts.saving} startIcon={<PrintIcon />} autoFocus>
            {texts.save}
          </SubmitButton>
        </DialogActions>
      </ChangeForm>
    </Dialog>
  );
}
