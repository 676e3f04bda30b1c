import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  LEDGER_TEXTS,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  POS_LIMITS,
  formatRupees,
  formatSchemeDate,
  typedDigits,
  type CounterRedemptionAnswer,
  paiseOfRupees,
  pointsWorthPaise,
  rupeesOfPaise,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { CustomerTier } from '../../components/CustomerTier';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { PageHeader } from '../../components/PageHeader';
import { SlipDialog } from '../../components/SlipDialog';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { reportFailure } from '../../lib/failure';
import { useMe } from '../../lib/me';
import { redeemTermsQuery, useRedeemPoints } from './api';
import { formatPoints } from './PointsForm';

const texts = LEDGER_TEXTS.redeem;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;
const POINTS_MAX_DIGITS = String(LIMITS.pointsMax).length;

/** A number of points in rupees at the rules' value of a point (in rupees), to the paisa. */
const worth = (points: number, pointValue: number) =>
  formatRupees(rupeesOfPaise(pointsWorthPaise(points, paiseOfRupees(pointValue))));

interface Slip extends CounterRedemptionAnswer {
  customer: CustomerOption;
  invoiceNo: string;
  date: string;
}

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
  const [points, setPoints] = useState('');
  const [invoiceNo, setInvoiceNo] = useState('');
  const [customerError, setCustomerError] = useState<string | undefined>();
  const [pointsError, setPointsError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [slip, setSlip] = useState<Slip | null>(null);
  const pointsInput = useRef<HTMLInputElement>(null);
  const redeem = useRedeemPoints();
  const terms = useQuery(redeemTermsQuery(customer?.MOBILENO ?? ''));

  // The customer the counter home chose comes with the address; staff may still choose another.
  usePreselectedCustomer(customer, setCustomer);

  const choose = (next: CustomerOption | null) => {
    setCustomer(next);
    setCustomerError(undefined);
    setPointsError(undefined);
  };

  const wanted = Number(points);

  const check = (): boolean => {
    if (!customer) {
      setCustomerError(texts.chooseCustomer);
      return false;
    }
    if (!terms.data) return false;
    const problem =
      points === '' || wanted < 1
        ? texts.enterPoints
        : wanted < terms.data.minRedeemPoints
          ? MESSAGES.redeemBelowMinimum(terms.data.minRedeemPoints)
          : wanted > terms.data.balance
            ? MESSAGES.insufficientPoints(terms.data.balance)
            : undefined;
    setPointsError(problem);
    if (problem) pointsInput.current?.focus();
    return problem === undefined;
  };

  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setRefusal(null);
    setConfirming(true);
  };

  const confirm = () => {
    if (!customer) return;
    const bill = invoiceNo.trim();
    redeem.submit(
      { mobile: customer.MOBILENO, points: wanted, ...(bill ? { invoiceNo: bill } : {}) },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setSlip({ ...answer, customer, invoiceNo: bill, date: today });
          setPoints('');
          setInvoiceNo('');
        },
        onError: (error) =>
          reportFailure(error, texts.failed, (message) => setRefusal(message ?? texts.failed)),
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
        <Box component="form" noValidate onSubmit={ask} aria-labelledby="redeem-form-title">
          <Stack spacing={2.5}>
            <CustomerSearch
              value={customer}
              onSelect={choose}
              label={texts.search}
              errorText={customerError}
              autoFocus
            />
            {customer && (
              <Box
                role="status"
                aria-label={texts.balance}
                sx={{
                  px: 2,
                  py: 1,
                  borderRadius: 2,
                  bgcolor: 'rgba(201, 162, 39, 0.12)',
                  border: 1,
                  borderColor: 'secondary.light',
                }}
              >
                <Typography variant="body2" color="text.secondary">
                  {optionLabel(customer)}
                </Typography>
                {terms.data ? (
                  <>
                    <Typography sx={{ fontWeight: 700 }}>
                      {texts.balance}:{' '}
                      {texts.balanceValue(
                        formatPoints(terms.data.balance),
                        formatRupees(terms.data.value),
                      )}
                    </Typography>
                    <Typography variant="body2">
                      {texts.minimum(formatPoints(terms.data.minRedeemPoints))}
                    </Typography>
                    <CustomerTier standing={terms.data} />
                  </>
                ) : terms.isError ? (
                  <Typography color="error">{texts.termsFailed}</Typography>
                ) : (
                  <CircularProgress size={16} aria-label={texts.termsLoading} />
                )}
              </Box>
            )}
            <TextField
              label={texts.points}
              name="points"
              inputRef={pointsInput}
              value={points}
              // Digits only ("1,000" keeps 1000); any other keystroke is ignored.
              onChange={(event) => {
                const digits = typedDigits(event.target.value, POINTS_MAX_DIGITS);
                if (digits === null) return;
                setPoints(digits);
                setPointsError(undefined);
              }}
              required
              autoComplete="off"
              error={pointsError !== undefined}
              helperText={
                pointsError ??
                (terms.data && wanted > 0
                  ? texts.pointsWorth(worth(wanted, terms.data.pointValue))
                  : ' ')
              }
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <TextField
              label={texts.invoiceNo}
              name="invoiceNo"
              value={invoiceNo}
              onChange={(event) => setInvoiceNo(event.target.value)}
              autoComplete="off"
              slotProps={{ htmlInput: { maxLength: POS_LIMITS.documentNoMaxLength } }}
            />
            <Box>
              <SubmitButton
                pending={redeem.isPending}
                pendingLabel={texts.redeeming}
                disabled={Boolean(customer) && !terms.data}
              >
                {texts.redeem}
              </SubmitButton>
            </Box>
          </Stack>
        </Box>
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
          error={refusal}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        />
      )}
      {slip && (
        <SlipDialog
          title={texts.slip.title}
          lines={[
            [texts.slip.customer, optionLabel(slip.customer)],
            [texts.slip.date, formatSchemeDate(slip.date)],
            [texts.slip.points, texts.slip.pointsValue(formatPoints(slip.points))],
            [texts.slip.value, formatRupees(slip.value)],
            [texts.slip.balance, texts.slip.pointsValue(formatPoints(slip.balance))],
            ...(slip.invoiceNo ? [[texts.slip.invoiceNo, slip.invoiceNo] as const] : []),
            ...(me ? [[texts.slip.staff, me.name || me.username] as const] : []),
          ]}
          closeLabel={texts.slip.close}
          printLabel={texts.slip.print}
          onClose={() => setSlip(null)}
        />
      )}
    </>
  );
}
