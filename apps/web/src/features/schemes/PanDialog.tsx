import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { LIMITS, MESSAGES, SCHEME_TEXTS } from '@kanak/contract';

const texts = SCHEME_TEXTS.generation;

interface PanDialogProps {
  pending: boolean;
  /** Shown under the PAN field: the format rule, or the server's refusal. */
  error: string | null;
  onEdit: () => void;
  onSave: (pan: string) => void;
  onCancel: () => void;
}

/**
 * Enter PAN: schemes of ₹16,000 or above need one. The field takes at most 10
 * characters (upper-cased); SAVE checks the format before anything is sent. Mounted while open.
 */
export function PanDialog({ pending, error, onEdit, onSave, onCancel }: PanDialogProps) {
  const [pan, setPan] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onSave(pan.trim().toUpperCase());
  };

  return (
    <Dialog open onClose={pending ? undefined : onCancel} fullWidth maxWidth="xs">
      <form noValidate onSubmit={submit}>
        <DialogTitle>{texts.panTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{MESSAGES.panDialogText}</DialogContentText>
          <TextField
            label={texts.pan}
            name="pan"
            value={pan}
            onChange={(event) => {
              setPan(event.target.value.toUpperCase().slice(0, LIMITS.panLength));
              onEdit();
            }}
            autoFocus
            autoComplete="off"
            fullWidth
            error={Boolean(error)}
            helperText={error ?? ' '}
            slotProps={{
              htmlInput: {
                maxLength: LIMITS.panLength,
                autoCapitalize: 'characters',
                spellCheck: false,
              },
              formHelperText: error ? { role: 'alert' } : undefined,
            }}
          />
        </DialogContent>
        <DialogActions>
          <Button type="button" onClick={onCancel} disabled={pending}>
            {texts.cancel}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={pending}
            startIcon={
              pending ? (
                <CircularProgress size={18} color="inherit" aria-label={texts.savingPan} />
              ) : undefined
            }
          >
            {texts.save}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
