import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useQuery } from '@tanstack/react-query';
import {
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  STD_PLAN_CODE,
  formatRupees,
  formatSchemeDate,
  isInactive,
  isValidPan,
  needsPan,
  typedDigits,
  type CustomerRecord,
  type SchemePlan,
  type SchemeRecord,
  maturityOf,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { SHOWN_ONLY } from '../../components/shownOnly';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { todayGoldRateQuery } from '../../lib/gold-rate';
import { schemePlansQuery } from '../../lib/scheme-plans';
import { useMayCall } from '../../lib/me';
import { reportFailure } from '../../lib/failure';
import {
  schemeCustomerQuery,
  schemesQuery,
  useDeleteScheme,
  useGenerateScheme,
  useUpdatePan,
  useVerifyPan,
} from './api';
import { ActivateButton, ActivateSchemeDialog } from './ActivateScheme';
import { BackdateReasonField, useBackdating } from './BackdateReason';
import { DeleteSchemeDialog } from './DeleteSchemeDialog';
import { PanDialog } from './PanDialog';
import { SchemeLink } from '../../components/SchemeLink';
import { StatusChip } from './StatusChip';

const texts = SCHEME_TEXTS.generation;
const c = texts.columns;
const planTexts = SCHEME_PLAN_TEXTS;

/** Scheme Initiation (/home/scheme-generation): start a savings scheme for a customer. */
export function SchemeGenerationPage() {
  const today = useStoreToday();
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  const [dateInput, setDate] = useState<string | null>(null);
  const [backdateReason, setBackdateReason] = useState('');
  const [amount, setAmount] = useState('');
  const [chosenPlan, setPlan] = useState<string>(STD_PLAN_CODE);
  const [panOpen, setPanOpen] = useState(false);
  const [panError, setPanError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SchemeRecord | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [activating, setActivating] = useState<SchemeRecord | null>(null);
  // Cancelling a scheme is a manager's; a cashier is not offered it.
  const mayDelete = useMayCall('deleteScheme');
  const mayActivate = useMayCall('activateScheme');

  const record = useQuery(schemeCustomerQuery(customer?.MOBILENO ?? ''));
  const custid = customer && record.data ? record.data.custid : null;
  const schemes = useQuery(schemesQuery(custid));
  const generate = useGenerateScheme();
  const verifyPan = useVerifyPan();
  const updatePan = useUpdatePan();
  const remove = useDeleteScheme();
  // The plans offered now. Until they are read (or when they cannot be), the standard scheme
  // is the one choice, and a scheme starts exactly as it always did.
  const plans = useQuery(schemePlansQuery);
  const offered = (plans.data ?? []).filter((plan) => plan.active);
  const planOptions = [
    ...(offered.some((plan) => plan.code === STD_PLAN_CODE)
      ? []
      : [{ code: STD_PLAN_CODE, name: planTexts.standardName }]),
    ...offered,
  ].map((plan) => ({ value: plan.code, label: planTexts.planOption(plan.code, plan.name) }));
  // A plan withdrawn while chosen falls back to the standard one.
  const planCode = planOptions.some((option) => option.value === chosenPlan)
    ? chosenPlan
    : STD_PLAN_CODE;
  const plan = offered.find((candidate) => candidate.code === planCode);

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
      onSuccess: (pan) => {
        if (isValidPan(pan)) startScheme(who);
        else {
          setPanError(null);
          setPanOpen(true);
        }
      },
      onError: (error) => reportFailure(error, MESSAGES.panVerifyFailed, 'fixed'),
    });
  };

  const savePan = (pan: string) => {
    const who = record.data;
    if (!who) return;
    if (!isValidPan(pan)) return setPanError(MESSAGES.panFormat);
    setPanError(null);
    updatePan.submit(
      { custid: who.custid, pan },
      {
        onSuccess: () => {
          setPanOpen(false);
          startScheme({ ...who, pan });
        },
        onError: (error) =>
          reportFailure(error, MESSAGES.panUpdateFailed, () =>
            setPanError(MESSAGES.panUpdateRefused),
          ),
      },
    );
  };

  const confirmDelete = () => {
    if (!deleting) return;
    setDeleteError(null);
    remove.submit(deleting.schemeid, {
      onSuccess: (body) => {
        setDeleting(null);
        if (body.message) showAlert('success', body.message);
      },
      onError: (error) =>
        reportFailure(error, MESSAGES.schemeDeleteFailed, () =>
          setDeleteError(MESSAGES.schemeDeleteFailed),
        ),
    });
  };

  const columns: DataColumn<SchemeRecord>[] = [
    {
      key: 'id',
      header: c.schemeId,
      width: 'minmax(90px, 1fr)',
      cell: (row) => <SchemeLink schemeid={row.schemeid} />,
    },
    {
      key: 'start',
      header: c.startDate,
      width: 'minmax(110px, 1fr)',
      cell: (row) => formatSchemeDate(row.startdt),
    },
    {
      key: 'maturity',
      header: c.maturityDate,
      width: 'minmax(120px, 1fr)',
      cell: (row) => formatSchemeDate(maturityOf(row)),
    },
    {
      key: 'amount',
      header: c.amount,
      width: 'minmax(110px, 1fr)',
      align: 'right',
      cell: (row) => formatRupees(row.amount),
    },
    {
      key: 'status',
      header: c.status,
      width: 'minmax(240px, 1.5fr)',
      cell: (row) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <StatusChip matyn={row.matyn} />
          {isInactive(row.matyn) && mayActivate && (
            <ActivateButton schemeid={row.schemeid} onClick={() => setActivating(row)} />
          )}
          {isInactive(row.matyn) && mayDelete && (
            <Tooltip title={texts.deleteAction(row.schemeid)}>
              <IconButton
                size="small"
                color="error"
                aria-label={texts.deleteAction(row.schemeid)}
                onClick={() => {
                  setDeleteError(null);
                  setDeleting(row);
                }}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      ),
    },
  ];

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
              label={planTexts.plan}
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

      <Box component="section" aria-labelledby="scheme-list-title">
        <Typography id="scheme-list-title" component="h2" variant="h5" sx={{ mb: 1.5 }}>
          {texts.tableTitle}
        </Typography>
        <DataTable
          label={texts.table}
          columns={columns}
          rows={customer ? (schemes.data ?? []) : []}
          rowKey={(row) => row.schemeid}
          bodyHeight={280}
          minWidth={720}
          emptyText={MESSAGES.noActiveSchemes}
          loading={loadingCustomer || schemes.isFetching}
          loadingLabel={texts.loadingSchemes}
        />
      </Box>

      {panOpen && (
        <PanDialog
          pending={updatePan.isPending || generate.isPending}
          error={panError}
          onEdit={() => setPanError(null)}
          onSave={savePan}
          onCancel={() => setPanOpen(false)}
        />
      )}
      {activating && (
        <ActivateSchemeDialog scheme={activating} onClose={() => setActivating(null)} />
      )}
      {deleting && (
        <DeleteSchemeDialog
          schemeid={deleting.schemeid}
          pending={remove.isPending}
          error={deleteError}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}

/**
 * The chosen plan's name and terms; a weight plan adds how its installments buy gold, at
 * today's rate. The name is said in full here, on as many lines as it takes: a narrow plan
 * field cuts it.
 */
function PlanTerms({ plan }: { plan: SchemePlan }) {
  const weight = plan.kind === 'weight';
  const rate = useQuery({ ...todayGoldRateQuery, enabled: weight });
  return (
    <Box sx={{ gridColumn: '1 / -1' }}>
      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {plan.name}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {planTexts.terms(
          plan.installments,
          formatRupees(plan.minAmount),
          plan.bonusPercent,
          plan.graceDays,
        )}
      </Typography>
      {weight && (
        <Alert
          role="note"
          severity={rate.isSuccess && rate.data === null ? 'warning' : 'info'}
          sx={{ mt: 1 }}
        >
          {planTexts.weightNote}{' '}
          {rate.isSuccess &&
            (rate.data
              ? planTexts.rateToday(formatRupees(rate.data.rate22k))
              : planTexts.noRateToday)}
        </Alert>
      )}
    </Box>
  );
}
