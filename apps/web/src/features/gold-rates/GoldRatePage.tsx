import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GOLD_RATE_CHECK,
  GOLD_RATE_TEXTS,
  GOLD_RATE_UNUSUAL,
  PAGE_TITLES,
  addDays,
  formatRupees,
  formatSlashDate,
  goldRateSaveRequest,
  ratesFarFromLast,
  readTypedNumber,
  type GoldRate,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { PageHeader } from '../../components/PageHeader';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreTimeZone, useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useMayCall } from '../../lib/me';
import { goldRatesQuery, useSaveGoldRate } from './api';

const texts = GOLD_RATE_TEXTS;
type Field = 'date' | 'rate22k' | 'rate24k';
type Rates = { rate22k: number; rate24k: number };

/** The history's first range: the last 31 days, today included. */
const HISTORY_DAYS = 31;

const ratePair = (rates: Rates) =>
  texts.ratePair(formatRupees(rates.rate22k), formatRupees(rates.rate24k));

/** A typed rate as every screen reads it ("7,904" too): blank is no number at all, not zero. */
const typedNumber = (typed: string) => (typed.trim() === '' ? undefined : readTypedNumber(typed));

/**
 * Gold rate (/home/gold-rate): a manager or the owner enters the day's 22K and 24K rate, or
 * corrects a date's rate after confirming; everyone sees the rates by date.
 */
export function GoldRatePage() {
  const mayEnter = useMayCall('saveGoldRate');
  return (
    <>
      <PageHeader title={PAGE_TITLES.goldRate} />
      <Stack spacing={3} sx={{ maxWidth: 900 }}>
        {mayEnter ? (
          <EnterRate />
        ) : (
          <Typography color="text.secondary">{texts.readOnly}</Typography>
        )}
        <History />
      </Stack>
    </>
  );
}

/** A save that waits for staff to confirm: a correction, or a rate far from the last one. */
interface Correction {
  request: { date: string; confirmed?: boolean } & Rates;
  /** The date's rate now, when it has one. */
  before: GoldRate | undefined;
  /** Why each rate far from the last one needs a second look, as the server words it. */
  unusual: string[];
}

function EnterRate() {
  const today = useStoreToday();
  const queryClient = useQueryClient();
  const save = useSaveGoldRate();
  const [date, setDate] = useState(today);
  const [rate22k, setRate22k] = useState('');
  const [rate24k, setRate24k] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [correction, setCorrection] = useState<Correction | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);

  const send = (request: Correction['request'], inDialog: boolean) =>
    save.submit(request, {
      onSuccess: (answer) => {
        setCorrection(null);
        setRate22k('');
        setRate24k('');
        if (answer.message) showAlert('success', answer.message);
      },
      onError: (error) => {
        // The server found the rate unusual (a rate entered meanwhile, say, that this screen
        // did not see): staff are asked, in the server's words, and a yes sends it confirmed.
        const failure = readFailure(error);
        if (
          failure.kind === 'refused' &&
          failure.code === GOLD_RATE_UNUSUAL &&
          !request.confirmed &&
          failure.message
        ) {
          setDialogError(null);
          setCorrection((shown) => ({
            request: { ...request, confirmed: true },
            before: shown?.before,
            unusual: [failure.message!],
          }));
          return;
        }
        reportFailure(error, texts.saveFailed, (message) =>
          (inDialog ? setDialogError : setRefusal)(message ?? texts.saveFailed),
        );
      },
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking || save.isRunning()) return;
    setRefusal(null);
    const checked = goldRateSaveRequest.safeParse({
      date,
      rate22k: typedNumber(rate22k),
      rate24k: typedNumber(rate24k),
    });
    if (!checked.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    // A date that has a rate already is a correction: staff see both rates before replacing.
    // A rate far from the last one before it is confirmed too, as the server asks.
    const { date: on } = checked.data;
    setChecking(true);
    let before: GoldRate | undefined;
    let unusual: string[];
    try {
      const month = await queryClient.fetchQuery({
        ...goldRatesQuery(addDays(on, -GOLD_RATE_CHECK.lookBackDays), on),
        staleTime: 0,
      });
      before = month.find((rate) => rate.date === on);
      unusual = ratesFarFromLast(
        checked.data,
        month.find((rate) => rate.date < on),
      );
    } catch (error) {
      reportFailure(error, texts.checkFailed, (message) =>
        setRefusal(message ?? texts.checkFailed),
      );
      return;
    } finally {
      setChecking(false);
    }
    if (before || unusual.length > 0) {
      setDialogError(null);
      setCorrection({
        request: unusual.length > 0 ? { ...checked.data, confirmed: true } : checked.data,
        before,
        unusual,
      });
    } else {
      send(checked.data, false);
    }
  };

  const rateField = (name: 'rate22k' | 'rate24k', label: string, value: string) => (
    <TextField
      label={label}
      name={name}
      value={value}
      onChange={(event) => (name === 'rate22k' ? setRate22k : setRate24k)(event.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      slotProps={{ htmlInput: { inputMode: 'decimal' }, inputLabel: { shrink: true } }}
      fullWidth
    />
  );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack spacing={2.5}>
          <Typography variant="h6" component="h2">
            {texts.enterHeading}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {texts.enterIntro}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <DateField
              label={texts.date}
              name="date"
              value={date}
              onChange={setDate}
              max={today}
              error={Boolean(errors.date)}
              helperText={errors.date}
            />
            {rateField('rate22k', texts.rate22k, rate22k)}
            {rateField('rate24k', texts.rate24k, rate24k)}
          </Stack>
          {refusal && (
            <Alert severity="error" role="alert">
              {refusal}
            </Alert>
          )}
          <div>
            <SubmitButton pending={checking || save.isPending} pendingLabel={texts.saving}>
              {texts.save}
            </SubmitButton>
          </div>
        </Stack>
      </form>
      {correction && (
        <ConfirmDialog
          title={correction.before ? texts.confirmTitle : texts.unusualTitle}
          question={[
            correction.before &&
              texts.confirmQuestion(
                formatSlashDate(correction.request.date),
                ratePair(correction.before),
                ratePair(correction.request),
              ),
            ...correction.unusual,
          ]
            .filter(Boolean)
            .join(' ')}
          cancelLabel={texts.cancel}
          confirmLabel={correction.before ? texts.confirm : texts.saveUnusual}
          pendingLabel={texts.saving}
          pending={save.isPending}
          error={dialogError}
          onConfirm={() => send(correction.request, true)}
          onCancel={() => setCorrection(null)}
        />
      )}
    </Paper>
  );
}

/** The history's columns; a rate's time of entry in the store's time zone. */
const columnsIn = (timeZone: string): DataColumn<GoldRate>[] => [
  {
    key: 'date',
    header: texts.colDate,
    width: '110px',
    nowrap: true,
    cell: (rate) => formatSlashDate(rate.date),
  },
  {
    key: 'rate22k',
    header: texts.col22k,
    width: 'minmax(100px, 1fr)',
    align: 'right',
    nowrap: true,
    cell: (rate) => formatRupees(rate.rate22k),
  },
  {
    key: 'rate24k',
    header: texts.col24k,
    width: 'minmax(100px, 1fr)',
    align: 'right',
    nowrap: true,
    cell: (rate) => formatRupees(rate.rate24k),
  },
  {
    key: 'enteredBy',
    header: texts.colEnteredBy,
    width: 'minmax(0, 1.2fr)',
    cell: (rate) => rate.enteredBy ?? '',
  },
  {
    key: 'updatedAt',
    header: texts.colUpdatedAt,
    width: '170px',
    nowrap: true,
    cell: (rate) =>
      new Date(rate.updatedAt).toLocaleString('en-IN', {
        dateStyle: 'short',
        timeStyle: 'short',
        timeZone,
      }),
  },
];

function History() {
  const today = useStoreToday();
  const timeZone = useStoreTimeZone();
  const [from, setFrom] = useState(() => addDays(today, -(HISTORY_DAYS - 1)));
  const [to, setTo] = useState(today);
  const [shown, setShown] = useState({ from, to });
  const history = useQuery(goldRatesQuery(shown.from, shown.to));
  const rangeError = history.error ? readRangeRefusal(history.error) : undefined;

  return (
    <Stack spacing={2} component="section" aria-label={texts.historyHeading}>
      <Typography variant="h6" component="h2">
        {texts.historyHeading}
      </Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'flex-start' } }}
      >
        <DateField label={texts.from} name="from" value={from} onChange={setFrom} max={today} />
        <DateField label={texts.to} name="to" value={to} onChange={setTo} max={today} />
        <Button variant="outlined" onClick={() => setShown({ from, to })} sx={{ minHeight: 56 }}>
          {texts.show}
        </Button>
      </Stack>
      <DataTable
        loadError={history.isError && (rangeError ?? texts.loadFailed)}
        label={texts.historyTable}
        columns={columnsIn(timeZone)}
        rows={history.data ?? []}
        rowKey={(rate) => rate.date}
        bodyHeight={360}
        minWidth={620}
        emptyText={texts.historyEmpty}
        loading={history.isFetching}
        loadingLabel={texts.loading}
      />
    </Stack>
  );
}

/** The server's words when it refused the range (from after to, more than a year). */
function readRangeRefusal(error: unknown): string | undefined {
  const failure = readFailure(error);
  return failure.kind === 'refused' ? (failure.message ?? undefined) : undefined;
}
