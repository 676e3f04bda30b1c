import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ReplayIcon from '@mui/icons-material/Replay';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { LEDGER_TEXTS, LIMITS, typedDigits } from '@kanak/contract';
import { ChangeForm, type FormChange } from '../../components/ChangeForm';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { DateField } from '../../components/DateField';
import { SubmitButton } from '../../components/SubmitButton';
import { SHOWN_ONLY } from '../../components/shownOnly';
import { appState, showAlert } from '../../lib/app-state';
import { clearDraft, keepDraft, readDraft } from '../../lib/drafts';
import type { PointsEntry, PointsFormValues } from './api';
import { EntryTypeToggle } from './EntryTypeToggle';
import { PointsBalance } from './PointsBalance';
import { blankPointsForm, isStarted, POINTS_MAX_DIGITS, readEntry } from './pointsEntry';

const texts = LEDGER_TEXTS.loyaltyPoints;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;

interface PointsFormProps {
  /** The search box's label (differs between the balance screen and the statement edit). */
  searchLabel: string;
  initialValues: PointsFormValues;
  /** The store's today: the latest date allowed, and the date a cleared form returns to. */
  today: string;
  /** The change UPDATE sends (its failures are told by the screen, as alerts). */
  change: FormChange;
  /** Called with a complete entry; `clear` empties the form (after a success). */
  onSubmit: (entry: PointsEntry, clear: () => void) => void;
  /** Show the chosen customer's current balance (before a deduction). */
  showBalance?: boolean;
  autoFocus?: boolean;
  /** Buttons after UPDATE (the statement edit's CANCEL). */
  secondaryAction?: ReactNode;
  /** The heading's id that names the form. */
  labelledBy?: string;
  /** Keep what was typed under this name when the session expires, for after sign-in. */
  draftName?: string;
  /** After a clear, offer the same customer again with one press (the next entry for them). */
  offerFollowUp?: boolean;
}

/**
 * The loyalty-points form: customer search, read-only Mobile no. and Name,
 * Date, the Points Allocation / Points Deduction toggle (no initial choice), Loyalty Points
 * (digits only), Narration and UPDATE. Its check is the spec's one warning of what is missing,
 * not a message per field; the server checks the entry with the contract's pointsForm.
 */
export function PointsForm({
  searchLabel,
  initialValues,
  today,
  change,
  onSubmit,
  showBalance = false,
  autoFocus = false,
  secondaryAction,
  labelledBy,
  draftName,
  offerFollowUp = false,
}: PointsFormProps) {
  const [startValues] = useState(
    () =>
      (draftName && readDraft<PointsFormValues>(draftName, appState.get().activeUser)) ||
      initialValues,
  );
  const form = useForm<PointsFormValues>({ defaultValues: startValues });
  const { control, reset, setValue, getValues } = form;
  useEffect(() => {
    if (!draftName) return;
    clearDraft(draftName);
    return keepDraft(draftName, () => getValues(), isStarted);
  }, [draftName, getValues]);
  // A new key remounts the search box, emptying its text.
  const [searchKey, setSearchKey] = useState(0);
  const [mobileno, custname] = useWatch({ control, name: ['MOBILENO', 'CUSTNAME'] });
  // A kept reference: the search box tells a new choice from a re-render by identity.
  const selected = useMemo<CustomerOption | null>(
    () => (mobileno ? { CUSTNAME: custname, MOBILENO: mobileno } : null),
    [mobileno, custname],
  );

  const choose = (customer: CustomerOption | null) => {
    setValue('CUSTNAME', customer?.CUSTNAME ?? '');
    setValue('MOBILENO', customer?.MOBILENO ?? '');
  };
  // The customer the counter home chose comes with the address (a kept draft's comes first).
  usePreselectedCustomer(selected, choose);

  // The customer of the entry just made, for a follow-up entry.
  const [previous, setPrevious] = useState<CustomerOption | null>(null);

  const clear = () => {
    const values = getValues();
    setPrevious(
      offerFollowUp && values.MOBILENO
        ? { CUSTNAME: values.CUSTNAME, MOBILENO: values.MOBILENO }
        : null,
    );
    reset(blankPointsForm(today));
    setSearchKey((key) => key + 1);
  };

  const submit = (values: PointsFormValues) => {
    const entry = readEntry(values);
    if ('warning' in entry) showAlert('warning', entry.warning);
    else onSubmit(entry, clear);
  };

  return (
    <ChangeForm form={form} change={change} onSubmit={submit} aria-labelledby={labelledBy}>
      <Stack spacing={2.5}>
        <CustomerSearch
          key={searchKey}
          value={selected}
          onSelect={choose}
          label={searchLabel}
          autoFocus={autoFocus}
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <TextField label={texts.mobile} value={mobileno} slotProps={SHOWN_ONLY} name="MOBILENO" />
          <TextField label={texts.name} value={custname} slotProps={SHOWN_ONLY} name="CUSTNAME" />
        </Box>
        {showBalance && mobileno !== '' && <PointsBalance mobileno={mobileno} />}
        <Box sx={{ maxWidth: { sm: 'calc(50% - 8px)' } }}>
          <Controller
            control={control}
            name="INVDATE"
            render={({ field }) => (
              <DateField
                label={texts.date}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                max={today}
                required
              />
            )}
          />
        </Box>
        <EntryTypeToggle />
        <Controller
          control={control}
          name="POINTS"
          render={({ field }) => (
            <TextField
              label={texts.points}
              name={field.name}
              inputRef={field.ref}
              value={field.value}
              onBlur={field.onBlur}
              // Digits only ("1,000" keeps 1000); any other keystroke is ignored.
              onChange={(event) => {
                const digits = typedDigits(event.target.value, POINTS_MAX_DIGITS);
                if (digits !== null) field.onChange(digits);
              }}
              required
              autoComplete="off"
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
          )}
        />
        <Controller
          control={control}
          name="NARRATION"
          render={({ field: { ref, ...field } }) => (
            <TextField
              label={texts.narration}
              {...field}
              inputRef={ref}
              autoComplete="off"
              slotProps={{ htmlInput: { maxLength: LIMITS.narrationMaxLength } }}
            />
          )}
        />
        <Stack direction="row" spacing={2}>
          <SubmitButton pendingLabel={texts.updating}>{texts.update}</SubmitButton>
          {secondaryAction}
          {previous && !mobileno && (
            <Button
              type="button"
              variant="text"
              startIcon={<ReplayIcon />}
              onClick={() => {
                choose(previous);
                setPrevious(null);
              }}
            >
              {texts.followUp(optionLabel(previous))}
            </Button>
          )}
        </Stack>
      </Stack>
    </ChangeForm>
  );
}
