import { useState, type FormEvent } from 'react';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ACCOUNTING_TEXTS,
  PAGE_TITLES,
  TALLY_LEDGER_FIELDS,
  TALLY_LEDGERS,
  accountingSettings,
  formatSlashDate,
  tallyPushRequest,
  type AccountingSettings,
  type AccountingSettingsData,
  type TallyPushResult,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateField } from '../../components/DateField';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useBranchList } from '../../lib/branches';
import {
  downloadTallyFile,
  useAccountingSettings,
  usePushToTally,
  useSaveAccountingSettings,
} from './api';

const texts = ACCOUNTING_TEXTS;
type Field = keyof AccountingSettings;

/** A refusal's own words, or the screen's fixed text when the server could not say. */
function failureText(error: unknown, fallback: string) {
  const failure = readFailure(error);
  if (failure.kind === 'refused') return failure.message ?? fallback;
  if (failure.kind === 'exception') return fallback;
  return null;
}

/**
 * Accounting (/home/accounting, owner): first what is done every month — the days' vouchers as
 * a Tally import file, or sent straight to Tally with its answer — and how to import the file
 * in TallyPrime, with the group each ledger goes under; then the one-time set-up of the Tally
 * company and ledger names, folded away once saved.
 */
export function AccountingPage() {
  const settings = useAccountingSettings();
  return (
    <>
      <PageHeader title={PAGE_TITLES.accounting} />
      {settings.isError && <Alert severity="error">{texts.loadFailed}</Alert>}
      {settings.isPending && <CircularProgress aria-label={texts.loading} />}
      {settings.data && (
        <Stack spacing={3} sx={{ maxWidth: 720 }}>
          <HandOff razorpaySettlements={settings.data.razorpaySettlements} />
          <ImportHelp current={settings.data} />
          <LedgersSetUp current={settings.data} />
        </Stack>
      )}
    </>
  );
}

/** How to import the file in TallyPrime, and which group each ledger is created under. */
function ImportHelp({ current }: { current: AccountingSettingsData }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="tally-help"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id="tally-help">
          {texts.helpHeading}
        </Typography>
        <Typography component="ol" variant="body2" sx={{ pl: 2.5, m: 0, '& li': { mb: 0.75 } }}>
          {texts.helpSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {texts.helpPush}
        </Typography>
        <Typography variant="subtitle2" component="h3" id="tally-groups">
          {texts.groupsHeading}
        </Typography>
        <Table size="small" aria-labelledby="tally-groups">
          <TableHead>
            <TableRow>
              <TableCell>{texts.ledgerColumn}</TableCell>
              <TableCell>{texts.nameColumn}</TableCell>
              <TableCell>{texts.groupColumn}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {TALLY_LEDGER_FIELDS.map((field) => (
              <TableRow key={field}>
                <TableCell>{TALLY_LEDGERS[field].label}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{current[field]}</TableCell>
                <TableCell>{TALLY_LEDGERS[field].group}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Stack>
    </Paper>
  );
}

/** The one-time set-up, open until the names are saved once, folded away after. */
function LedgersSetUp({ current }: { current: AccountingSettingsData }) {
  // Held here, above the form (which starts afresh on every save): saving does not fold it
  // away under the owner's eyes; the next visit finds it folded.
  const [open, setOpen] = useState(current.isDefault);
  return (
    <Accordion
      variant="outlined"
      expanded={open}
      onChange={(_event, expanded) => setOpen(expanded)}
      disableGutters
      slotProps={{ heading: { component: 'h2' } }}
    >
      <AccordionSummary
        expandIcon={<ExpandMoreIcon />}
        aria-controls="tally-ledgers"
        id="tally-ledgers-heading"
      >
        <Stack>
          <Typography variant="h6" component="span">
            {texts.ledgersHeading}
          </Typography>
          {!open && (
            <Typography variant="body2" color="text.secondary">
              {texts.ledgersSaved}
            </Typography>
          )}
        </Stack>
      </AccordionSummary>
      <AccordionDetails id="tally-ledgers" sx={{ px: { xs: 2, sm: 3 }, pb: { xs: 2, sm: 3 } }}>
        <LedgersForm key={JSON.stringify(current)} current={current} />
      </AccordionDetails>
    </Accordion>
  );
}

function LedgersForm({ current }: { current: AccountingSettingsData }) {
  const save = useSaveAccountingSettings();
  const [draft, setDraft] = useState<AccountingSettings>(() => {
    const { isDefault: _isDefault, razorpaySettlements: _razorpay, ...values } = current;
    return values;
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const checked = accountingSettings.safeParse(draft);
    if (!checked.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    save.submit(checked.data, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
      },
      onError: (error) => setRefusal(failureText(error, texts.saveFailed)),
    });
  };

  const field = (name: Field, label: string, help?: string) => (
    <TextField
      key={name}
      label={label}
      name={name}
      value={draft[name]}
      onChange={(event) => setDraft((d) => ({ ...d, [name]: event.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? help}
      slotProps={{ inputLabel: { shrink: true } }}
      fullWidth
    />
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2.5}>
        <Typography variant="body2" color="text.secondary">
          {texts.ledgersIntro}
        </Typography>
        {current.isDefault && <Alert severity="info">{texts.defaults}</Alert>}
        {field('company', texts.company, texts.companyHelp)}
        {TALLY_LEDGER_FIELDS.map((name) =>
          field(name, TALLY_LEDGERS[name].label, texts.underGroup(TALLY_LEDGERS[name].group)),
        )}
        {refusal && (
          <Alert severity="error" role="alert">
            {refusal}
          </Alert>
        )}
        <div>
          <SubmitButton pending={save.isPending} pendingLabel={texts.saving}>
            {texts.save}
          </SubmitButton>
        </div>
      </Stack>
    </form>
  );
}

/** What the last download held of Razorpay's payouts, in words. */
function downloadedWords(settlements: string | null) {
  if (settlements === 'not-set') return texts.downloadedWithoutKeys;
  if (settlements === 'branch') return texts.downloadedBranch;
  const count = Number(settlements);
  return settlements !== null && Number.isInteger(count) ? texts.downloadedWith(count) : null;
}

function HandOff({ razorpaySettlements }: { razorpaySettlements: boolean }) {
  const today = useStoreToday();
  const branches = useBranchList();
  const push = usePushToTally();
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [branch, setBranch] = useState('');
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const [downloaded, setDownloaded] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [pushError, setPushError] = useState<string | null>(null);
  const [result, setResult] = useState<{ message?: string; data: TallyPushResult } | null>(null);

  /** The range as the server checks it; its message under the dates when it is wrong. */
  const checkedRange = () => {
    const checked = tallyPushRequest.safeParse({ from, to });
    setRangeError(checked.success ? null : (checked.error.issues[0]?.message ?? null));
    return checked.success ? checked.data : null;
  };

  const exportFile = async () => {
    const range = checkedRange();
    if (!range || exporting) return;
    setExportError(null);
    setDownloaded(null);
    setExporting(true);
    try {
      const { settlements } = await downloadTallyFile({ ...range, ...(branch ? { branch } : {}) });
      setDownloaded(downloadedWords(settlements));
    } catch (error) {
      setExportError(failureText(error, texts.exportFailed));
    } finally {
      setExporting(false);
    }
  };

  const askToPush = () => {
    if (!checkedRange()) return;
    setPushError(null);
    setConfirming(true);
  };

  const sendToTally = () =>
    push.submit(
      { from, to },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setResult({ message: answer.message, data: answer.data });
        },
        onError: (error) => setPushError(failureText(error, texts.pushFailed)),
      },
    );

  const branchOptions = [
    { value: '', label: texts.allBranches },
    ...(branches.data ?? []).map((b) => ({ value: b.code, label: `${b.code} · ${b.name}` })),
  ];

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2.5}>
        <Typography variant="h6" component="h2">
          {texts.handOffHeading}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {texts.handOffIntro}
        </Typography>
        {!razorpaySettlements && <Alert severity="info">{texts.razorpayNotSet}</Alert>}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <DateField label={texts.from} name="from" value={from} onChange={setFrom} max={today} />
          <DateField
            label={texts.to}
            name="to"
            value={to}
            onChange={setTo}
            error={Boolean(rangeError)}
            helperText={rangeError ?? undefined}
          />
          <SelectField
            label={texts.branch}
            name="branch"
            value={branch}
            options={branchOptions}
            onChange={setBranch}
          />
        </Stack>
        {exportError && (
          <Alert severity="error" role="alert">
            {exportError}
          </Alert>
        )}
        {downloaded && (
          <Alert severity="success" role="status">
            {downloaded}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <SubmitButton
            type="button"
            pending={exporting}
            pendingLabel={texts.exporting}
            onClick={() => void exportFile()}
          >
            {texts.exportFile}
          </SubmitButton>
          <Button variant="outlined" onClick={askToPush}>
            {texts.push}
          </Button>
        </Stack>
        {result && <PushResult message={result.message} result={result.data} />}
      </Stack>
      {confirming && (
        <ConfirmDialog
          title={texts.confirmTitle}
          question={texts.confirmQuestion(formatSlashDate(from), formatSlashDate(to))}
          cancelLabel={texts.cancel}
          confirmLabel={texts.confirm}
          pendingLabel={texts.pushing}
          pending={push.isPending}
          error={pushError}
          onConfirm={sendToTally}
          onCancel={() => setConfirming(false)}
        />
      )}
    </Paper>
  );
}

function PushResult({ message, result }: { message?: string; result: TallyPushResult }) {
  return (
    <Alert
      severity={result.errors === 0 ? 'success' : 'warning'}
      role="status"
      aria-label={texts.resultHeading}
    >
      <Typography variant="subtitle2" component="h3">
        {texts.resultHeading}
      </Typography>
      {message && <Typography variant="body2">{message}</Typography>}
      <Typography variant="body2">
        {`${texts.vouchers}: ${result.vouchers} · ${texts.created}: ${result.created} · ${texts.altered}: ${result.altered} · ${texts.errors}: ${result.errors}`}
      </Typography>
      {result.lineErrors.length > 0 && (
        <ul>
          {result.lineErrors.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
