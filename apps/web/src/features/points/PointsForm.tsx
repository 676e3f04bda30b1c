import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { CASHCR, LEDGER_TEXTS, LIMITS, MESSAGES, typedDigits, type CashCr } from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { DateField } from '../../components/DateField';
import { SubmitButton } from '../../components/SubmitButton';
import { SHOWN_ONLY } from '../../components/shownOnly';
import { appState, showAlert } from '../../lib/app-state';
import { clearDraft, keepDraft, readDraft } from '../../lib/drafts';
import { balanceQuery, type PointsEntry, type PointsFormValues } from './api';
import { PointsWorth } from '../../components/PointsWorth';

const texts = LEDGER_TEXTS.loyaltyPoints;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;
const POINTS_MAX_DIGITS = String(LIMITS.pointsMax).length;

/** An empty form dated `today`: no customer, no points, no allocation/deduction choice. */
export const blankPointsForm = (today: string): PointsFormValues => ({
  CUSTNAME: '',
  MOBILENO: '',
  POINTS: '',
  NARRATION: '',
  INVDATE: today,
  CASHCR: '',
});

/** Something typed worth keeping when staff leave the screen: a customer, points or a narration. */
const isStarted = (values: PointsFormValues) =>
  Boolean(values.MOBILENO || values.POINTS || values.NARRATION.trim());

export const formatPoints = (points: number) => points.toLocaleString('en-IN');

interface PointsFormProps {
  /** The search box's label (differs between the balance screen and the statement edit). */
  searchLabel: string;
  initialValues: PointsFormValues;
  /** The store's today: the latest date allowed, and the date a cleared form returns to. */
  today: string;
  busy: boolean;
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
 * (digits only), Narration and UPDATE.
 */
export function PointsForm({
  searchLabel,
  initialValues,
  today,
  busy,
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
  const { control, handleSubmit, reset, setValue, getValues } = useForm<PointsFormValues>({
    defaultValues: startValues,
  });
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
  const balance = useQuery({ ...balanceQuery(showBalance ? mobileno : '') });

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
    // A mobile number, a points value and a CASHCR choice (and a date) are needed: the spec's
    // warning, then what is missing.
    const missing = [
      !values.MOBILENO && texts.missing.customer,
      !values.INVDATE && texts.missing.date,
      !values.CASHCR && texts.missing.entryType,
      !values.POINTS && texts.missing.points,
    ].filter((text) => text !== false);
    if (missing.length > 0 || !values.CASHCR) {
      showAlert('warning', [MESSAGES.requiredFields, ...missing].join(' '));
      return;
    }
    onSubmit({ ...values, CASHCR: values.CASHCR, NARRATION: values.NARRATION.trim() }, clear);
  };

  return (
    <Box component="form" noValidate onSubmit={handleSubmit(submit)} aria-labelledby={labelledBy}>
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
        {showBalance && mobileno !== '' && (
          <Box
            role="status"
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: 1,
              px: 2,
              py: 1,
              borderRadius: 2,
              bgcolor: 'rgba(201, 162, 39, 0.12)',
              border: 1,
              borderColor: 'secondary.light',
            }}
          >
            <Typography variant="body2" color="text.secondary">
              {texts.balance}:
            </Typography>
            {balance.isSuccess ? (
              <>
                <Typography component="span" sx={{ fontWeight: 700 }}>
                  {texts.balanceValue(formatPoints(balance.data.points))}
                </Typography>
                <PointsWorth summary={balance.data} />
              </>
            ) : balance.isFetching ? (
              <CircularProgress size={16} aria-label={texts.balanceLoading} />
            ) : (
              <Typography component="span">—</Typography>
            )}
          </Box>
        )}
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
        <Controller
          control={control}
          name="CASHCR"
          render={({ field }) => (
            <ToggleButtonGroup
              exclusive
              value={field.value || null}
              // Like radio buttons: choosing again keeps the choice.
              onChange={(_event, next: CashCr | null) => next && field.onChange(next)}
              aria-label={texts.entryType}
              fullWidth
              sx={{ '& .MuiToggleButton-root': { py: 1.5, lineHeight: 1.2 } }}
            >
              <ToggleButton value={CASHCR.credit} color="success">
                <AddCircleOutlineIcon fontSize="small" sx={{ mr: 0.75 }} />
                {texts.allocation}
              </ToggleButton>
              <ToggleButton value={CASHCR.debit} color="error">
                <RemoveCircleOutlineIcon fontSize="small" sx={{ mr: 0.75 }} />
                {texts.deduction}
              </ToggleButton>
            </ToggleButtonGroup>
          )}
        />
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
          <SubmitButton pending={busy} pendingLabel={texts.updating}>
            {texts.update}
          </SubmitButton>
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
    </Box>
  );
}
