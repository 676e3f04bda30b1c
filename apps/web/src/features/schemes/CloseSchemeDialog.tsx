import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
import { useQuery } from '@tanstack/react-query';
import {
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  formatGrams,
  formatRupees,
  formatSchemeDate,
  type SchemeRecord,
} from '@kanak/contract';

import { ConfirmDialog } from '../../components/ConfirmDialog';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { closePreviewQuery, type useCloseScheme } from './api';

const texts = SCHEME_TEXTS.close;
const grams = (mg: number) => SCHEME_PLAN_TEXTS.grams(formatGrams(mg));

/**
 * Closing pays the scheme out: closing's own figures, read from the server, are shown before
 * CONFIRM (a plan's bonus counts the installments paid on time, and lapses past its days to
 * redeem; a weight scheme is paid as its gold at today's rate), and CONFIRM waits for them.
 * Mounted while open; `onClose` once cancelled or closed. The change is the screen's: a press
 * whose outcome is unknown, pressed again in a dialog opened anew, is the same action.
 */
export function CloseSchemeDialog({
  scheme,
  close,
  onClose,
}: {
  scheme: SchemeRecord;
  close: ReturnType<typeof useCloseScheme>;
  onClose: () => void;
}) {
  const preview = useQuery(closePreviewQuery(scheme.schemeid));
  const figures = preview.data;
  // A refusal (no gold rate today, say) in the server's words; anything else the fixed text.
  const failure = preview.isError ? readFailure(preview.error) : undefined;
  const previewError = failure
    ? (failure.kind === 'refused' && failure.message) || texts.figuresFailed
    : null;
  const rows: [string, string][] = figures
    ? [
        [texts.paid, texts.paidValue(figures.paid, scheme.installments)],
        ...(figures.onTime === undefined
          ? []
          : [
              [texts.onTime, texts.paidValue(figures.onTime, scheme.installments)] as [
                string,
                string,
              ],
            ]),
        ...(figures.redeemBy === undefined
          ? []
          : ([[texts.redeemBy, formatSchemeDate(figures.redeemBy)]] as [string, string][])),
        [texts.deposited, formatRupees(scheme.amount * figures.paid)],
        [texts.bonus, formatRupees(figures.bonus)],
        ...(figures.mg === undefined
          ? []
          : ([
              [texts.gold, grams(figures.mg)],
              [texts.bonusGold, grams(figures.bonusMg ?? 0)],
              [texts.rate, formatRupees(figures.rate22k ?? 0)],
            ] as [string, string][])),
        [texts.maturityValue, formatRupees(figures.maturityValue)],
      ]
    : [];

  const confirm = () =>
    close.submit(scheme.schemeid, {
      onSuccess: ({ message, maturityValue }) => {
        onClose();
        showAlert('success', texts.closed(message, formatRupees(maturityValue)));
      },
    });

  return (
    <ConfirmDialog
      title={texts.title(scheme.schemeid)}
      cancelLabel={texts.cancel}
      confirmLabel={texts.confirm}
      pendingLabel={figures ? texts.closing : texts.figuring}
      pending={close.isPending || preview.isPending}
      error={close.error ?? previewError}
      onConfirm={() => {
        if (figures) confirm();
      }}
      onCancel={onClose}
    >
      <DialogContentText sx={{ mb: 2 }}>{texts.question}</DialogContentText>
      {figures?.bonusLapsed && figures.redeemBy && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {texts.bonusLapsed(formatSchemeDate(figures.redeemBy))}
        </Alert>
      )}
      {preview.isPending && <CircularProgress size={24} aria-label={texts.figuring} />}
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: '1fr auto',
          rowGap: 1,
          m: 0,
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, fontWeight: 600, textAlign: 'right' },
        }}
      >
        {rows.map(([term, value]) => (
          <Box key={term} sx={{ display: 'contents' }}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </Box>
        ))}
      </Box>
    </ConfirmDialog>
  );
}
