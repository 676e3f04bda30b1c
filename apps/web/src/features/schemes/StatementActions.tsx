import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/AddCard';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import {
  SCHEME_TEXTS,
  formatMonth,
  formatRupees,
  isInactive,
  type InstallmentReceipt,
  type SchemeRecord,
  type SchemeStatementRow,
} from '@kanak/contract';
import { showAlert } from '../../lib/app-state';
import { useMayCall } from '../../lib/me';
import { ActivateButton, ActivateSchemeDialog } from './ActivateScheme';
import { useAddInstallment } from '../../lib/installments';
import { useCloseScheme } from './api';
import { CloseSchemeDialog } from './CloseSchemeDialog';
import { PaymentDialog, type PaymentValues } from './PaymentDialog';
import { canClose, installmentMonths } from './schemeFormat';
import { SchemeFacts } from './StatementView';

const texts = SCHEME_TEXTS.statement;
const installment = SCHEME_TEXTS.installment;

/**
 * The statement's scheme and what the counter may do with it, as the role may: Activate an
 * Inactive one, take this month's installment (off, with the reason, once it is paid) or the
 * next month's in advance, and close it once closable. A recorded installment's receipt goes
 * to `onReceipt`.
 */
export function StatementActions({
  scheme,
  rows,
  today,
  onReceipt,
}: {
  scheme: SchemeRecord;
  rows: readonly SchemeStatementRow[];
  today: string;
  onReceipt: (receipt: InstallmentReceipt) => void;
}) {
  // This month's installment, or next month's taken in advance.
  const [adding, setAdding] = useState<'month' | 'advance' | null>(null);
  const [activating, setActivating] = useState(false);
  const [closing, setClosing] = useState(false);
  const mayActivate = useMayCall('activateScheme');
  const mayAdd = useMayCall('addInstallment');
  const mayCloseScheme = useMayCall('closeScheme');
  const addInstallment = useAddInstallment(installment.recordFailed);
  const close = useCloseScheme();
  const months = installmentMonths(scheme, rows, today);
  const nextMonth = formatMonth(months.nextMonth);

  const add = (which: 'month' | 'advance') => {
    addInstallment.reset();
    setAdding(which);
  };

  const record = (values: PaymentValues) =>
    addInstallment.submit(
      { schemeid: scheme.schemeid, ...values, ...(adding === 'advance' ? { advance: true } : {}) },
      {
        onSuccess: ({ message, receipt }) => {
          setAdding(null);
          onReceipt(receipt);
          if (message) showAlert('success', message);
        },
      },
    );

  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-start',
        justifyContent: 'space-between',
        columnGap: 2,
      }}
    >
      <SchemeFacts scheme={scheme} />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
        {isInactive(scheme.matyn) && mayActivate && (
          <ActivateButton schemeid={scheme.schemeid} onClick={() => setActivating(true)} />
        )}
        {months.open && mayAdd && (
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            disabled={!months.mayTakeThisMonth}
            aria-describedby={months.mayTakeThisMonth ? undefined : 'installment-taken'}
            onClick={() => add('month')}
          >
            {texts.addInstallment}
          </Button>
        )}
        {mayAdd && months.mayTakeAdvance && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => add('advance')}>
            {installment.advanceButton(nextMonth)}
          </Button>
        )}
        {canClose(scheme, today) && mayCloseScheme && (
          <Button
            variant="outlined"
            startIcon={<DoneAllIcon />}
            onClick={() => {
              close.reset();
              setClosing(true);
            }}
          >
            {texts.closeScheme}
          </Button>
        )}
      </Stack>
      {months.open && mayAdd && months.thisMonthPaid && (
        <Typography id="installment-taken" sx={{ flexBasis: '100%', mb: 2 }}>
          {installment.monthPaid(formatMonth(months.thisMonth))}
          {months.nextMonthPaid && ` ${installment.nextAlsoPaid(nextMonth)}`}
        </Typography>
      )}

      {adding && (
        <PaymentDialog
          title={
            adding === 'advance'
              ? installment.advanceTitle(scheme.schemeid, nextMonth)
              : installment.title(scheme.schemeid)
          }
          text={
            adding === 'advance'
              ? installment.advanceText(formatRupees(scheme.amount), nextMonth)
              : installment.text(formatRupees(scheme.amount))
          }
          submitLabel={installment.record}
          today={today}
          min={scheme.startdt}
          change={addInstallment}
          onSubmit={record}
          onClose={() => setAdding(null)}
        />
      )}
      {activating && <ActivateSchemeDialog scheme={scheme} onClose={() => setActivating(false)} />}
      {closing && (
        <CloseSchemeDialog scheme={scheme} close={close} onClose={() => setClosing(false)} />
      )}
    </Box>
  );
}
