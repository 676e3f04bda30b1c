import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { MESSAGES, SCHEME_TEXTS } from '@kanak/contract';

const texts = SCHEME_TEXTS.generation;

interface DeleteSchemeDialogProps {
  schemeid: number;
  pending: boolean;
  /** The inline refusal ('Error in deleting this scheme.'). */
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** 'Delete Scheme {id}': cancelling a scheme cannot be undone, so it is confirmed first. */
export function DeleteSchemeDialog({
  schemeid,
  pending,
  error,
  onConfirm,
  onCancel,
}: DeleteSchemeDialogProps) {
  return (
    <Dialog open onClose={pending ? undefined : onCancel} fullWidth maxWidth="xs">
      <DialogTitle>{texts.deleteTitle(schemeid)}</DialogTitle>
      <DialogContent>
        <DialogContentText>{MESSAGES.deleteSchemeQuestion}</DialogContentText>
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
          color="error"
          onClick={onConfirm}
          disabled={pending}
          startIcon={
            pending ? (
              <CircularProgress size={18} color="inherit" aria-label={texts.deleting} />
            ) : undefined
          }
        >
          {texts.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
