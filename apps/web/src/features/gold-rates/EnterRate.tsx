import { useState } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import {
  GOLD_RATE_CHECK,
  GOLD_RATE_TEXTS,
  GOLD_RATE_UNUSUAL,
  addDays,
  formatRupees,
  formatSlashDate,
  goldRateSaveRequest,
  ratesFarFromLast,
  readTypedNumber,
  type GoldRate,
  type GoldRateSaveRequest,
} from '@kanak/contract';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateField } from '../../components/DateField';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { goldRatesQuery, useSaveGoldRate } from './api';

const texts = GOLD_RATE_TEXTS;
type Rates = { rate22k: number; rate24k: number };

const ratePair = (rates: Rates) =>
  texts.ratePair(formatRupees(rates.rate22k), formatRupees(rates.rate24k));

/** A typed rate as every screen reads it ("7,904" too): blank is no number at all, not zero. */
const typedNumber = (typed: string) => (typed.trim() === '' ? Number.NaN : readTypedNumber(typed));

/** The day's rate as typed: the rates are text until they are read. */
const rateDraft = z.object({ date: z.string(), rate22k: z.string(), rate24k: z.string() });
type Draft = z.infer<typeof rateDraft>;

const readRate = (draft: Draft) => ({
  date: draft.date,
  rate22k: typedNumber(draft.rate22k),
  rate24k: typedNumber(draft.rate24k),
});

/** The draft read, then checked by the contract's own rules: each problem in the server's words. */
const checkedDraft = rateDraft.transform(readRate).pipe(goldRateSaveRequest);

/** A save that waits for staff to confirm: a correction, or a rate far from the last one. */
interface Correction {
  request: { date: string; confirmed?: boolean } & Rates;
  /** The date's rate now, when it has one. */
  before: GoldRate | undefined;
  /** Why each rate far from the last one needs a second look, as the server words it. */
  unusual: string[];
}

/** The day's 22K and 24K rate, entered, or a date's rate corrected once staff confirm. */
export function EnterRate() {
  const today = useStoreToday();
  const queryClient = useQueryClient();
  const save = useSaveGoldRate();
  const form = useSchemaForm(
    checkedDraft,
    { date: today, rate22k: '', rate24k: '' },
    // A message stays until the next SAVE.
    { reValidateMode: 'onSubmit' },
  );
  // Looking up the date's rate before saving: the form is as busy as while saving.
  const [checking, setChecking] = useState(false);
  const [checkRefusal, setCheckRefusal] = useState<string | null>(null);
  const [correction, setCorrection] = useState<Correction | null>(null);

  const send = (request: Correction['request']) =>
    save.submit(request, {
      onSuccess: (answer) => {
        setCorrection(null);
        form.reset({ date: form.getValues('date'), rate22k: '', rate24k: '' });
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
          // The question says it: not a refusal to show as well.
          save.reset();
          setCorrection((shown) => ({
            request: { ...request, confirmed: true },
            before: shown?.before,
            unusual: [failure.message!],
          }));
        }
      },
    });

  const submit = async (rates: GoldRateSaveRequest & Rates) => {
    if (checking || save.isRunning()) return;
    save.reset();
    setCheckRefusal(null);
    // A date that has a rate already is a correction: staff see both rates before replacing.
    // A rate far from the last one before it is confirmed too, as the server asks.
    const { date: on } = rates;
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
        rates,
        month.find((rate) => rate.date < on),
      );
    } catch (error) {
      reportFailure(error, texts.checkFailed, (message) =>
        setCheckRefusal(message ?? texts.checkFailed),
      );
      return;
    } finally {
      setChecking(false);
    }
    if (before || unusual.length > 0) {
      setCorrection({
        request: unusual.length > 0 ? { ...rates, confirmed: true } : rates,
        before,
        unusual,
      });
    } else {
      send(rates);
    }
  };

  const rateField = (name: 'rate22k' | 'rate24k', label: string) => (
    <FormField<Draft>
      name={name}
      label={label}
      slotProps={{ htmlInput: { inputMode: 'decimal' } }}
    />
  );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <ChangeForm
        form={form}
        // The form's refusals show beside it; a refusal of a confirmed save, in the question.
        change={{
          isPending: checking || save.isPending,
          error: correction ? null : (checkRefusal ?? save.error),
        }}
        onSubmit={(rates) => void submit(rates)}
        onInvalid={() => {
          if (checking || save.isRunning()) return;
          // A new press: the last refusal goes.
          save.reset();
          setCheckRefusal(null);
        }}
      >
        <Stack spacing={2.5}>
          <Typography variant="h6" component="h2">
            {texts.enterHeading}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {texts.enterIntro}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <Controller
              control={form.control}
              name="date"
              render={({ field, fieldState }) => (
                <DateField
                  label={texts.date}
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  max={today}
                  error={Boolean(fieldState.error)}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            {rateField('rate22k', texts.rate22k)}
            {rateField('rate24k', texts.rate24k)}
          </Stack>
          <ChangeError />
          <div>
            <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
          </div>
        </Stack>
      </ChangeForm>
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
          error={save.error}
          onConfirm={() => send(correction.request)}
          onCancel={() => {
            setCorrection(null);
            // A refusal of the question's save goes with it.
            save.reset();
          }}
        />
      )}
    </Paper>
  );
}
