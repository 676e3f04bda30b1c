import { useState } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  LEDGER_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  POS_LIMITS,
  formatRupees,
  typedDigits,
  paiseOfRupees,
  pointsWorthPaise,
  rupeesOfPaise,
} from '@kanak/contract';
import { ChangeForm } from '../../components/ChangeForm';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { PageHeader } from '../../components/PageHeader';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { useMe } from '../../lib/me';
import { redeemTermsQuery, useRedeemPoints } from './api';
import { formatPoints, POINTS_MAX_DIGITS } from './pointsEntry';
import { RedeemSlip, type Slip } from './RedeemSlip';
import { RedeemTerms, type Terms } from './RedeemTerms';

const texts = LEDGER_TEXTS.redeem;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;

/** A number of points in rupees at the rules' value of a point (in rupees), to the paisa. */
const worth = (points: number, pointValue: number) =>
  formatRupees(rupeesOfPaise(pointsWorthPaise(points, paiseOfRupees(pointValue))));

/** The points typed (digits only) and the bill they are taken against, if any. */
interface RedeemValues {
  points: string;
  invoiceNo: string;
}

/** Why these points cannot be taken, against the customer's balance and the rules' minimum. */
const pointsProblem = (points: string, terms: Terms) => {
  const wanted = Number(points);
  if (points === '' || wanted < 1) return texts.enterPoints;
  if (wanted < terms.minRedeemPoints) return MESSAGES.redeemBelowMinimum(terms.minRedeemPoints);
  if (wanted > terms.balance) return MESSAGES.insufficientPoints(terms.balance);
  return undefined;
};

/**
 * Redeem Points (/home/redeem-points): a customer's points spent at the counter. The balance,
 * its worth and the rules' minimum show once the customer is chosen; the points are checked
 * against both before the press, the server checks them again under its lock, and a
 * confirmation comes before anything is taken. Done, it hands over a slip to print.
 */
export function RedeemPointsPage() {
  const today = useStoreToday();
  const { data: me } = useMe();
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  const form = useForm<RedeemValues>({ defaultValues: { points: '', invoiceNo: '' } });
  const points = useWatch({ control: form.control, name: 'points' });
  const [customerError, setCustomerError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [slip, setSlip] = useState<Slip | null>(null);
  const redeem = useRedeemPoints();
  const terms = useQuery(redeemTermsQuery(customer?.MOBILENO ?? ''));

  // The customer the counter home chose comes with the address; staff may still choose another.
  usePreselectedCustomer(customer, setCustomer);

  const choose = (next: CustomerOption | null) => {
    setCustomer(next);
    setCustomerError(undefined);
    form.clearErrors('points');
  };

  const wanted = Number(points);

  const ask = (values: RedeemValues) => {
    if (!customer) return setCustomerError(texts.chooseCustomer);
    if (!terms.data) return;
    const problem = pointsProblem(values.points, terms.data);
    if (problem) {
      form.setError('points', { message: problem }, { shouldFocus: true });
      return;
    }
    // A new question: the last refusal goes (never one still on its way).
    if (!redeem.isRunning()) redeem.reset();
    setConfirming(true);
  };

  const confirm = () => {
    if (!customer) return;
    const bill = form.getValues('invoiceNo').trim();
    redeem.submit(
      { mobile: customer.MOBILENO, points: wanted, ...(bill ? { invoiceNo: bill } : {}) },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setSlip({ ...answer, customer, invoiceNo: bill, date: today });
          form.reset();
        },
      },
    );
  };

  return (
    <>
      <PageHeader title={PAGE_TITLES.redeemPoints} />
      <Paper variant="outlined" sx={{ maxWidth: 640, p: { xs: 2, sm: 3 } }}>
        <Typography id="redeem-form-title" component="h2" variant="h5" sx={{ mb: 2.5 }}>
          {texts.form}
        </Typography>
        <ChangeForm
          form={form}
          // The refusal is the question's to show.
          change={{ isPending: redeem.isPending, error: null }}
          onSubmit={ask}
          aria-labelledby="redeem-form-title"
        >
          <Stack spacing={2.5}>
            <CustomerSearch
              value={customer}
              onSelect={choose}
              label={texts.search}
              errorText={customerError}
              autoFocus
            />
            {customer && <RedeemTerms customer={customer} terms={terms} />}
            <Controller
              control={form.control}
              name="points"
              render={({ field, fieldState }) => (
                <TextField
                  label={texts.points}
                  name={field.name}
                  inputRef={field.ref}
                  value={field.value}
                  onBlur={field.onBlur}
                  // Digits only ("1,000" keeps 1000); any other keystroke is ignored.
                  onChange={(event) => {
                    const digits = typedDigits(event.target.value, POINTS_MAX_DIGITS);
                    if (digits === null) return;
                    field.onChange(digits);
                    form.clearErrors('points');
                  }}
                  required
                  autoComplete="off"
                  error={fieldState.error !== undefined}
                  helperText={
                    fieldState.error?.message ??
                    (terms.data && wanted > 0
                      ? texts.pointsWorth(worth(wanted, terms.data.pointValue))
                      : ' ')
                  }
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="invoiceNo"
              render={({ field: { ref, ...field } }) => (
                <TextField
                  label={texts.invoiceNo}
                  {...field}
                  inputRef={ref}
                  autoComplete="off"
                  slotProps={{ htmlInput: { maxLength: POS_LIMITS.documentNoMaxLength } }}
                />
              )}
            />
            <Box>
              <SubmitButton
                pendingLabel={texts.redeeming}
                disabled={Boolean(customer) && !terms.data}
              >
                {texts.redeem}
              </SubmitButton>
            </Box>
          </Stack>
        </ChangeForm>
      </Paper>
      {customer && terms.data && (
        <ConfirmDialog
          open={confirming}
          title={texts.confirmTitle}
          question={texts.confirmQuestion(
            formatPoints(wanted),
            worth(wanted, terms.data.pointValue),
            optionLabel(customer),
          )}
          cancelLabel={texts.cancel}
          confirmLabel={texts.confirm}
          pendingLabel={texts.redeeming}
          pending={redeem.isPending}
          error={redeem.error}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        />
      )}
      {slip && (
        <RedeemSlip
          slip={slip}
          staff={me ? me.name || me.username : undefined}
          onClose={() => setSlip(null)}
        />
      )}
    </>
  );
}
