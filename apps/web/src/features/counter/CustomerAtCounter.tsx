import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COUNTER_HUB_TEXTS,
  COUNTER_TEXTS,
  SCHEME_TEXTS,
  formatMonthName,
  formatRupees,
  formatSlashDate,
  type CounterCustomer,
  type CounterScheme,
  type InstallmentReceipt,
} from '@kanak/contract';
import type { CustomerOption } from '../../components/CustomerSearch';
import { CustomerTier } from '../../components/CustomerTier';
import { PointsWorth } from '../../components/PointsWorth';
import { ReceiptDialog } from '../../components/ReceiptDialog';
import { schemeStatementPath } from '../../components/SchemeLink';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useAddInstallment } from '../../lib/installments';
import { useMayCall } from '../../lib/me';
import { refetchAfterChange } from '../../lib/query-client';
import { counterCustomerQuery, myDayQuery } from './api';
import { TakeInstallmentDialog, type TakenInstallment } from './TakeInstallmentDialog';

const texts = COUNTER_HUB_TEXTS;

/** What the due installment's button says: its amount and month, and "in advance" when so. */
const takeLabel = (scheme: CounterScheme, due: NonNullable<CounterScheme['due']>) =>
  (due.advance ? texts.takeAdvance : texts.take)(
    formatRupees(scheme.amount),
    formatMonthName(due.month),
  );

/** The balance, its worth, and the points expiring within 30 days with the days they expire. */
function PointsLine({ points }: { points: CounterCustomer['points'] }) {
  return (
    <Box sx={{ display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'baseline' }}>
        <Typography variant="body2" color="text.secondary">
          {texts.points}:
        </Typography>
        <Typography component="span" sx={{ fontWeight: 700 }}>
          {texts.balance(points.balance.toLocaleString('en-IN'))}
        </Typography>
        <PointsWorth
          summary={{ pointsValue: points.value, pointsExpiringIn30Days: points.expiringSoon }}
        />
      </Box>
      {points.expiring.length > 0 && (
        <Typography variant="body2">
          {texts.expiring}:{' '}
          {points.expiring
            .map((lot) =>
              texts.expiringOn(lot.points.toLocaleString('en-IN'), formatSlashDate(lot.expiresOn)),
            )
            .join(' · ')}
        </Typography>
      )}
    </Box>
  );
}

/**
 * One running scheme: its plan and installment, how far it is paid, what is overdue, and the
 * button that takes what is due today (the server says which month). The button comes before
 * the statement's link, so Tab from the search reaches it first.
 */
function SchemeDue({
  scheme,
  mayTake,
  onTake,
}: {
  scheme: CounterScheme;
  mayTake: boolean;
  onTake: () => void;
}) {
  const { due } = scheme;
  const facts = [
    texts.paid(scheme.paid, scheme.installments),
    ...(scheme.nextDue ? [texts.nextDue(formatSlashDate(scheme.nextDue))] : []),
  ];
  return (
    <Paper
      component="li"
      variant="outlined"
      sx={{
        p: 1.5,
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        alignItems: 'center',
        justifyContent: 'space-between',
        minWidth: 0,
      }}
    >
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {[
            texts.scheme(scheme.schemeid),
            scheme.plan ? scheme.plan.name : texts.standardPlan,
            texts.perMonth(formatRupees(scheme.amount)),
          ].join(' · ')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {facts.join(' · ')}
        </Typography>
        {scheme.overdue > 0 && (
          <Typography variant="body2" sx={{ fontWeight: 700, color: 'warning.dark' }}>
            {texts.overdue(scheme.overdue)}
          </Typography>
        )}
      </Box>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1.5,
          alignItems: 'center',
          flex: { xs: '1 1 100%', sm: '0 1 auto' },
        }}
      >
        {due && mayTake ? (
          <Button
            variant="contained"
            onClick={onTake}
            sx={{ flex: { xs: '1 1 auto', sm: 'none' } }}
          >
            {takeLabel(scheme, due)}
          </Button>
        ) : (
          <Typography variant="body2">{texts.nothingDue}</Typography>
        )}
        <Link
          component={RouterLink}
          to={schemeStatementPath(scheme.schemeid)}
          aria-label={SCHEME_TEXTS.statement.open(scheme.schemeid)}
        >
          {texts.statement}
        </Link>
      </Box>
    </Paper>
  );
}

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
  const addInstallment = useAddInstallment();
  const [taking, setTaking] = useState<CounterScheme | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<InstallmentReceipt | null>(null);

  const take = ({ mode, reference }: TakenInstallment) => {
    const due = taking?.due;
    if (!taking || !due) return;
    setError(null);
    addInstallment.submit(
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
        onError: (failure) =>
          reportFailure(failure, texts.dialog.failed, (message) =>
            setError(message ?? texts.dialog.failed),
          ),
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
                setError(null);
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
          pending={addInstallment.isPending}
          error={error}
          onSubmit={take}
          onClose={() => setTaking(null)}
        />
      )}
      {receipt && <ReceiptDialog receipt={receipt} printOnOpen onClose={() => setReceipt(null)} />}
    </Box>
  );
}
