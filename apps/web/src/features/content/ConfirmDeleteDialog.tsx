import { useId } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { CONTENT_TEXTS } from '@kanak/contract';

const texts = CONTENT_TEXTS;

interface ConfirmDeleteDialogProps {
  open: boolean;
  imageUrl: string | undefined;
  imageAlt: string | undefined;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** After the dialog has gone (it does not move the focus back itself). */
  onClosed: () => void;
}

/** Asks before an image is deleted: the delete cannot be undone. */
export function ConfirmDeleteDialog({
  open,
  imageUrl,
  imageAlt,
  busy,
  onCancel,
  onConfirm,
  onClosed,
}: ConfirmDeleteDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
      disableRestoreFocus
      slotProps={{ transition: { onExited: onClosed } }}
    >
      <DialogTitle id={titleId}>{texts.confirmDeleteTitle}</DialogTitle>
      <DialogContent>
        {imageUrl && (
          <Box
            component="img"
            src={imageUrl}
            alt={imageAlt ?? ''}
            sx={{
              display: 'block',
              maxWidth: '100%',
              maxHeight: 160,
              mx: 'auto',
              mb: 2,
              objectFit: 'contain',
            }}
          />
        )}
        <DialogContentText id={textId}>{texts.confirmDeleteText}</DialogContentText>
      </DialogContent>
      <DialogActions>
        {/* The safe choice first, and focused: Enter does not delete by accident. */}
        <Button onClick={onCancel} disabled={busy} autoFocus>
          {texts.confirmDeleteCancel}
        </Button>
        <Button
          onClick={onConfirm}
          disabled={busy}
          color="error"
          variant="contained"
          startIcon={
            busy ? (
              <CircularProgress size={18} color="inherit" aria-label={texts.deleting} />
            ) : undefined
          }
        >
          {texts.confirmDeleteConfirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
