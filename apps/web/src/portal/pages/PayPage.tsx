import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import {
  formatMonthName,
  formatRupees,
  PORTAL_TEXTS,
  UI_TEXTS,
  type InstallmentReceipt,
} from '@kanak/contract';
import { passbook, payOrder, verifyPayment } from '../api';
import { useShopBranding } from '../branding';
import { openCheckout } from '../checkout';
import { failureMessage } from '../http';
import { BackLink, LoadFailed, Loading, Notice, ScreenTitle } from '../parts';
import { PrintButton, Receipt } from '../Receipt';
import { NextInstallment } from '../SchemeFigures';
import { useLoad } from '../useLoad';

const texts = PORTAL_TEXTS.pay;

type Outcome =
  | { kind: 'paid'; message: string | undefined; receipt: InstallmentReceipt | null }
  | { kind: 'note'; message: string; tone: 'info' | 'error' };

/**
 * Paying the scheme's next installment: the server makes the gateway's order, the gateway's
 * checkout takes the money, and the server checks its signature and records the installment,
 * whose receipt is shown with the month it is for and the gateway's payment id. With nothing
 * Pay takes now (the server's scheme data says), the page says when the next falls due.
 */
export function PayPage({ schemeid }: { schemeid: number }) {
  const shop = useShopBranding();
  const { state, reload } = useLoad(() => passbook(schemeid), String(schemeid));
  const [step, setStep] = useState<'idle' | 'opening' | 'checking'>('idle');
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const pay = async () => {
    setOutcome(null);
    setStep('opening');
    try {
      const order = await payOrder(schemeid);
      let response;
      try {
        response = await openCheckout(order.checkoutUrl, {
          key: order.keyId,
          amount: order.amount,
          currency: order.currency,
          order_id: order.orderId,
          name: shop?.companyName ?? UI_TEXTS.defaultBranding.companyName,
          description: PORTAL_TEXTS.home.scheme(schemeid),
        });
      } catch {
        setOutcome({ kind: 'note', message: texts.checkoutFailed, tone: 'error' });
        return;
      }
      if (!response) {
        setOutcome({ kind: 'note', message: texts.dismissed, tone: 'info' });
        return;
      }
      setStep('checking');
      const answer = await verifyPayment(response);
      setOutcome(
        answer.data.checking
          ? { kind: 'note', message: texts.beingChecked, tone: 'info' }
          : answer.data.overpayment
            ? { kind: 'note', message: texts.overpayment, tone: 'info' }
            : { kind: 'paid', message: answer.message, receipt: answer.data.receipt },
      );
    } catch (failure) {
      // The server's own words: "Online payment is not set up.", nothing due, and the like.
      setOutcome({ kind: 'note', message: failureMessage(failure), tone: 'error' });
    } finally {
      setStep('idle');
    }
  };

  if (outcome?.kind === 'paid')
    return (
      <>
        <BackLink />
        <ScreenTitle>{texts.paidHeading}</ScreenTitle>
        {outcome.message && <Notice tone="success">{outcome.message}</Notice>}
        {outcome.receipt && (
          <>
            <Receipt
              receipt={{
                ...outcome.receipt,
                rate: outcome.receipt.rate22k,
                grams: outcome.receipt.mg == null ? null : outcome.receipt.mg / 1000,
                paymentId:
                  outcome.receipt.mode === 'online' ? outcome.receipt.reference : undefined,
              }}
            />
            <PrintButton />
          </>
        )}
      </>
    );

  return (
    <>
      <BackLink />
      <ScreenTitle>{texts.title}</ScreenTitle>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <LoadFailed error={state.error} retry={reload} />}
      {state.status === 'done' && !state.data.scheme.nextInstallment?.online && (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography>{PORTAL_TEXTS.home.scheme(schemeid)}</Typography>
          <NextInstallment scheme={state.data.scheme} />
        </Box>
      )}
      {state.status === 'done' && state.data.scheme.nextInstallment?.online && (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Typography>{texts.heading(schemeid)}</Typography>
          <Typography sx={{ fontWeight: 600 }}>
            {texts.installment(
              state.data.scheme.nextInstallment.installmentNo,
              state.data.scheme.installments,
              formatMonthName(state.data.scheme.nextInstallment.month),
            )}
          </Typography>
          <Typography>
            {texts.amount}: <Box component="strong">{formatRupees(state.data.scheme.amount)}</Box>
          </Typography>
          {outcome?.kind === 'note' && <Notice tone={outcome.tone}>{outcome.message}</Notice>}
          <Button
            variant="contained"
            size="large"
            disabled={step !== 'idle'}
            onClick={() => void pay()}
            startIcon={
              step !== 'idle' ? (
                <CircularProgress
                  size={20}
                  color="inherit"
                  aria-label={step === 'opening' ? texts.opening : texts.checking}
                />
              ) : undefined
            }
          >
            {texts.pay(formatRupees(state.data.scheme.amount))}
          </Button>
        </Box>
      )}
    </>
  );
}
