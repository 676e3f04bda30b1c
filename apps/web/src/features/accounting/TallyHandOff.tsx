import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ACCOUNTING_TEXTS,
  formatSlashDate,
  tallyPushRequest,
  type TallyPushResult,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateField } from '../../components/DateField';
import { BranchFilter } from '../../components/FilterPanel';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { downloadTallyFile, usePushToTally } from './api';

const texts = ACCOUNTING_TEXTS;

/** A refusal's own words, or the screen's fixed text when the server could not say. */
function failureText(error: unknown, fallback: string) {
  const failure = readFailure(error);
  if (failure.kind === 'refused') return failure.message ?? fallback;
  if (failure.kind === 'exception') return fallback;
  return null;
}

/** What the last download held of Razorpay's payouts, in words. */
function downloadedWords(settlements: string | null) {
  if (settlements === 'not-set') return texts.downloadedWithoutKeys;
  if (settlements === 'branch') return texts.downloadedBranch;
  const count = Number(settlements);
  return settlements !== null && Number.isInteger(count) ? texts.downloadedWith(count) : null;
}

export function HandOff({ razorpaySettlements }: { razorpaySettlements: boolean }) {
  const today = useStoreToday();
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
          <BranchFilter
            label={texts.branch}
            anyLabel={texts.allBranches}
            value={branch}
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
