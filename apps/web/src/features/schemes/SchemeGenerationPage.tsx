import { useEffect, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  STD_PLAN_CODE,
  formatSchemeDate,
  isInactive,
  isValidPan,
  needsPan,
  typedDigits,
  type CustomerRecord,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { DateField } from '../../components/DateField';
import { SHOWN_ONLY } from '../../components/shownOnly';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import {
  schemeCustomerQuery,
  schemesQuery,
  useGenerateScheme,
  useUpdatePan,
  useVerifyPan,
} from './api';
import { BackdateReasonField, useBackdating } from './BackdateReason';
import { CustomerSchemes } from './CustomerSchemes';
import { PanDialog } from './PanDialog';
import { PlanTerms, usePlanChoice } from './PlanTerms';

const texts = SCHEME_TEXTS.generation;

/** Scheme Initiation (/home/scheme-generation): start a savings scheme for a customer. */
export function SchemeGenerationPage() {
  const today = useStoreToday();
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  const [dateInput, setDate] = useState<string | null>(null);
  const [backdateReason, setBackdateReason] = useState('');
  const [amount, setAmount] = useState('');
  const [chosenPlan, setPlan] = useState<string>(STD_PLAN_CODE);
  const [panOpen, setPanOpen] = useState(false);

  const record = useQuery(schemeCustomerQuery(customer?.MOBILENO ?? ''));
  const custid = customer && record.data ? record.data.custid : null;
  const schemes = useQuery(schemesQuery(custid));
  const generate = useGenerateScheme();
  const verifyPan = useVerifyPan();
  const updatePan = useUpdatePan();
  const { code: planCode, options: planOptions, plan } = usePlanChoice(chosenPlan);

  const date = dateInput ?? today;
  const backdating = useBackdating(today);
  const needsReason = backdating.needsReason(date);
  const loadingCustomer = customer !== null && (record.isPending || schemes.isLoading);
  const busy = generate.isPending || verifyPan.isPending || updatePan.isPending;

  useEffect(() => {
    // Without the customer's record their schemes cannot be listed either.
    const error = record.error ?? schemes.error;
    if (!error) return;
    console.error('Scheme list failed', error);
    reportFailure(error, MESSAGES.schemesLoadFailed, 'fixed');
  }, [record.error, schemes.error, record.errorUpdatedAt, schemes.errorUpdatedAt]);

  const choose = (next: CustomerOption | null) => {
    setCustomer(next);
    generate.reset();
  };
  // The customer the counter home chose comes with the address.
  usePreselectedCustomer(customer, choose);

  const startScheme = (who: CustomerRecord) =>
    generate.submit(
      {
        custid: who.custid,
        mobileno: who.mobileno,
        custname: who.custname,
        startdt: date,
        amount: Number(amount),
        // Without a plan the server starts the standard scheme, as the original call did.
        ...(planCode === STD_PLAN_CODE ? {} : { plan: planCode }),
        ...(needsReason ? { backdateReason: backdateReason.trim() } : {}),
      },
      {
        onSuccess: (body) => {
          showAlert('success', body.message ?? '');
          setAmount('');
        },
        onError: (error) => reportFailure(error, MESSAGES.schemeGenerateFailed),
      },
    );

  /** The checks in their fixed order: customer, amount, the previous scheme, then the PAN. */
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Read at once: a second press in the same instant must not start a second scheme.
    const running = generate.isRunning() || verifyPan.isRunning() || updatePan.isRunning();
    if (running || busy || loadingCustomer) return;
    const who = customer ? record.data : undefined;
    if (!who) return showAlert('warning', MESSAGES.selectCustomer);
    if (amount === '' || Number(amount) === 0) return showAlert('warning', MESSAGES.enterAmount);
    if (needsReason && !backdating.reasonGiven(backdateReason)) {
      const earliest = formatSchemeDate(backdating.earliest);
      return showAlert('warning', MESSAGES.backdateReasonRequired(earliest));
    }
    const latest = schemes.data?.[0];
    if (latest && isInactive(latest.matyn))
      return showAlert('warning', MESSAGES.previousSchemePending);
    if (!needsPan(Number(amount))) return startScheme(who);
    verifyPan.submit(who.custid, {
      onSuccess: (pan) => (isValidPan(pan) ? startScheme(who) : setPanOpen(true)),
      onError: (error) => reportFailure(error, MESSAGES.panVerifyFailed, 'fixed'),
    });
  };

  return (
    <>
      <PageHeader title={PAGE_TITLES.schemeGeneration} />
      <Paper
        component="section"
        variant="outlined"
        aria-labelledby="scheme-form-title"
        sx={{ p: { xs: 2, sm: 3 }, mb: 3, position: 'relative', overflow: 'hidden' }}
      >
        <Box sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 4 }}>
          {(busy || loadingCustomer) && (
            <LinearProgress
              color="secondary"
              aria-label={
                loadingCustomer
                  ? texts.loadingCustomer
                  : verifyPan.isPending
                    ? texts.verifyingPan
                    : texts.generating
              }
            />
          )}
        </Box>
        <Typography id="scheme-form-title" component="h2" variant="h5" sx={{ mb: 2 }}>
          {texts.form}
        </Typography>
        <Box
          component="form"
          noValidate
          onSubmit={submit}
          sx={{
            display: 'grid',
            gap: 2,
            // Wide, the plan takes a row's first two columns, under the customer and the name:
            // a plan's name (up to 60 letters) shows whole, where a sixth of the row cut it.
            gridTemplateColumns: {
              xs: '1fr',
              sm: '1fr 1fr',
              lg: '2fr 1.5fr 1fr auto',
            },
            alignItems: 'start',
          }}
        >
          <CustomerSearch value={customer} onSelect={choose} label={texts.search} autoFocus />
          <TextField
            label={texts.name}
            value={customer ? (record.data?.custname ?? customer.CUSTNAME) : ''}
            fullWidth
            slotProps={SHOWN_ONLY}
          />
          <DateField
            label={texts.date}
            name="startdt"
            value={date}
            onChange={setDate}
            min={backdating.min()}
            max={today}
          />
          <Box sx={{ gridColumn: { lg: '1 / 3' }, minWidth: 0 }}>
            <SelectField
              label={SCHEME_PLAN_TEXTS.plan}
              name="plan"
              value={planCode}
              options={planOptions}
              onChange={setPlan}
            />
          </Box>
          <TextField
            label={texts.amount}
            name="amount"
            value={amount}
            // At most 7 digits, grouping left out ("5,000" keeps 5000); other keystrokes are ignored.
            onChange={(event) => {
              const digits = typedDigits(event.target.value, LIMITS.amountInputMaxLength);
              if (digits !== null) setAmount(digits);
            }}
            autoComplete="off"
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*' } }}
          />
          <SubmitButton
            size="large"
            pending={busy}
            pendingLabel={texts.generating}
            disabled={loadingCustomer}
            sx={{ minHeight: 56, whiteSpace: 'nowrap' }}
          >
            {texts.submit}
          </SubmitButton>
          {needsReason && (
            <Box sx={{ gridColumn: '1 / -1' }}>
              <BackdateReasonField
                value={backdateReason}
                onChange={setBackdateReason}
                earliest={backdating.earliest}
              />
            </Box>
          )}
          {plan && <PlanTerms plan={plan} />}
        </Box>
      </Paper>

      <CustomerSchemes
        rows={customer ? (schemes.data ?? []) : []}
        loading={loadingCustomer || schemes.isFetching}
      />
      {panOpen && record.data && (
        <PanDialog
          custid={record.data.custid}
          save={updatePan}
          pending={updatePan.isPending || generate.isPending}
          onSaved={(pan) => {
            setPanOpen(false);
            if (record.data) startScheme({ ...record.data, pan });
          }}
          onCancel={() => setPanOpen(false)}
        />
      )}
    </>
  );
}
