import Box from '@mui/material/Box';
import DialogContentText from '@mui/material/DialogContentText';
import { SCHEME_TEXTS, formatRupees, maturityFigures, type SchemeRecord } from '@kanak/contract';

import { ConfirmDialog } from '../../components/ConfirmDialog';

const texts = SCHEME_TEXTS.close;

interface CloseSchemeDialogProps {
  scheme: SchemeRecord;
  bonusPercent: number;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Closing pays the scheme out: the figures are shown before CONFIRM. */
export function CloseSchemeDialog({
  scheme,
  bonusPercent,
  pending,
  error,
  onConfirm,
  onCancel,
}: CloseSchemeDialogProps) {
  const { bonus, maturityValue } = maturityFigures(
    scheme.amount,
    scheme.paid,
    scheme.installments,
    bonusPercent,
  );
  const figures: [string, string][] = [
    [texts.paid, texts.paidValue(scheme.paid, scheme.installments)],
    [texts.deposited, formatRupees(scheme.amount * scheme.paid)],
    [texts.bonus, formatRupees(bonus)],
    [texts.maturityValue, formatRupees(maturityValue)],
  ];

  return (
    <ConfirmDialog
      title={texts.title(scheme.schemeid)}
      cancelLabel={texts.cancel}
      confirmLabel={texts.confirm}
      pendingLabel={texts.closing}
      pending={pending}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <DialogContentText sx={{ mb: 2 }}>{texts.question}</DialogContentText>
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
        {figures.map(([term, value]) => (
          <Box key={term} sx={{ display: 'contents' }}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </Box>
        ))}
      </Box>
    </ConfirmDialog>
  );
}
