import DialogContentText from '@mui/material/DialogContentText';
import { MESSAGES, SCHEME_TEXTS } from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';

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
    <ConfirmDialog
      title={texts.deleteTitle(schemeid)}
      cancelLabel={texts.cancel}
      confirmLabel={texts.confirm}
      pendingLabel={texts.deleting}
      pending={pending}
      error={error}
      danger
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <DialogContentText>{MESSAGES.deleteSchemeQuestion}</DialogContentText>
    </ConfirmDialog>
  );
}
