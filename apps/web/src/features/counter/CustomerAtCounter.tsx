import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COUNTER_HUB_TEXTS,
  COUNTER_TEXTS,
  type CounterScheme,
  type InstallmentReceipt,
} from '@kanak/contract';
import type { CustomerOption } from '../../components/CustomerSearch';
import { CustomerTier } from '../../components/CustomerTier';
import { ReceiptDialog } from '../../components/ReceiptDialog';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useMayCall } from '../../lib/me';
import { refetchAfterChange } from '../../lib/query-client';
import { useAddInstallment } from '../../lib/installments';
import { counterCustomerQuery, myDayQuery } from './api';
import { PointsLine } from './PointsLine';
import { SchemeDue } from './SchemeDue';
import { TakeInstallmentDialog, type TakenInstallment } from './TakeInstallmentDialog';

const texts = COUNTER_HUB_TEXTS;

/**
 * The chosen customer at the counter, read in one call: name and tier, points, and the running
 * schemes. Taking a due installment opens its dialog; saved, its receipt opens and prints, and
 * the customer and the day's list are read again.
 */
export function CustomerAtCounter({ customer }: { customer: CustomerOption }) {
  const today = useStoreToday();
  const queryClient = useQueryClient();
  const read = useQuery(counterCustomerQuery(customer.MOBILENO));
  const mayTake = useMayCall('addInstallment');
  const takeInstallment = useAddInstallment(texts.dialog.failed);
  const [taking, setTaking] = useState<CounterScheme | null>(null);
  const [receipt, setReceipt] = useState<InstallmentReceipt | null>(null);

  const take = ({ mode, reference }: TakenInstallment) => {
    const due = taking?.due;
    if (!taking || !due) return;
    takeInstallment.submit(
      {
        schemeid: taking.schemeid,
        date: today,
        mode,
        reference,
        ...(due.advance ? { advance: true } : {}),
      },
      {
        onSuccess: ({ message, receipt: made }) => {
          setTaking(null);
          setReceipt(made);
          if (message) showAlert('success', message);
          void refetchAfterChange(queryClient, counterCustomerQuery(customer.MOBILENO).queryKey);
          void refetchAfterChange(queryClient, myDayQuery.queryKey);
        },
      },
    );
  };

  if (read.isPending) {
    return (
      <Box aria-busy="true">
        <LinearProgress aria-label={texts.loading} />
      </Box>
    );
  }
  if (read.isError) {
    const failure = readFailure(read.error);
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void read.refetch()}>
            {texts.retry}
          </Button>
        }
      >
        {(failure.kind === 'refused' && failure.message) || texts.failed}
      </Alert>
    );
  }

  const data = read.data;
  return (
    <Box
      component="section"
      aria-label={texts.region(data.custname)}
      sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Typography sx={{ fontWeight: 600 }}>
          {COUNTER_TEXTS.chosen(data.custname, data.mobileno)}
        </Typography>
        <CustomerTier standing={data.tier} />
      </Box>
      <PointsLine points={data.points} />
      <Typography component="h2" variant="h6">
        {texts.schemes}
      </Typography>
      {data.schemes.length === 0 ? (
        <Typography>{texts.noSchemes}</Typography>
      ) : (
        <Box
          component="ul"
          aria-label={texts.schemes}
          sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1, minWidth: 0 }}
        >
          {data.schemes.map((scheme) => (
            <SchemeDue
              key={scheme.schemeid}
              scheme={scheme}
              mayTake={mayTake}
              onTake={() => {
                takeInstallment.reset();
                setTaking(scheme);
              }}
            />
          ))}
        </Box>
      )}
      {taking?.due && (
        <TakeInstallmentDialog
          scheme={taking}
          due={taking.due}
          customer={data}
          today={today}
          change={takeInstallment}
          onSubmit={take}
          onClose={() => setTaking(null)}
        />
      )}
      {receipt && <ReceiptDialog receipt={receipt} printOnOpen onClose={() => setReceipt(null)} />}
    </Box>
  );
}
