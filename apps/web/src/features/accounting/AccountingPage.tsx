import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
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
 * Accounting (/home/accounting, owner): the Tally company and the ledger names the vouchers go
 * to; a date range's vouchers as a Tally import file, or sent straight to Tally with its answer.
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
          <LedgersForm key={JSON.stringify(settings.data)} current={settings.data} />
          <HandOff />
        </Stack>
      )}
    </>
  );
}

function LedgersForm({ current }: { current: AccountingSettingsData }) {
  const save = useSaveAccountingSettings();
  const [draft, setDraft] = useState<AccountingSettings>(() => {
    const { isDefault: _isDefault, ...values } = current;
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
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={2.5}>
          <Typography variant="h6" component="h2">
            {texts.ledgersHeading}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {texts.ledgersIntro}
          </Typography>
          {current.isDefault && <Alert severity="info">{texts.defaults}</Alert>}
          {field('company', texts.company, texts.companyHelp)}
          {TALLY_LEDGER_FIELDS.map((name) => field(name, TALLY_LEDGERS[name].label))}
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
    </Paper>
  );
}

function HandOff() {
  const today = useStoreToday();
  const branches = useBranchList();
  const push = usePushToTally();
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [branch, setBranch] = useState('');
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
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
    setExporting(true);
    try {
      await downloadTallyFile({ ...range, ...(branch ? { branch } : {}) });
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
