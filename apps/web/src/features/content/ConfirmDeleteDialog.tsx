import Box from '@mui/material/Box';
import { CONTENT_TEXTS } from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';

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

/** Asks before an image is deleted, showing it: the delete cannot be undone. */
export function ConfirmDeleteDialog({
  open,
  imageUrl,
  imageAlt,
  busy,
  onCancel,
  onConfirm,
  onClosed,
}: ConfirmDeleteDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      title={texts.confirmDeleteTitle}
      question={texts.confirmDeleteText}
      cancelLabel={texts.confirmDeleteCancel}
      confirmLabel={texts.confirmDeleteConfirm}
      pendingLabel={texts.deleting}
      pending={busy}
      // A failed delete is reported by the screen's alert.
      error={null}
      danger
      onConfirm={onConfirm}
      onCancel={onCancel}
      onClosed={onClosed}
    >
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
    </ConfirmDialog>
  );
}
