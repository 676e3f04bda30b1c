import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { SCHEME_TEXTS, formatRupees, maturityFigures, type SchemeRecord } from '@kanak/contract';

const texts = SCHEME_TEXTS.close;

interface CloseSchemeDialogProps {
  scheme: SchemeRecord;
  bonusPercent: number;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Closing pays the scheme out: the figures are shown before CONFIRM (DESIGN §5). */
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
    <Dialog open onClose={pending ? undefined : onCancel} fullWidth maxWidth="xs">
      <DialogTitle>{texts.title(scheme.schemeid)}</DialogTitle>
      <DialogContent>
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
        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending} autoFocus>
          {texts.cancel}
        </Button>
        <Button
          variant="contained"
          onClick={onConfirm}
          disabled={pending}
          startIcon={
            pending ? (
              <CircularProgress size={18} color="inherit" aria-label={texts.closing} />
            ) : undefined
          }
        >
          {texts.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
