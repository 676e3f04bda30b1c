import DialogContentText from '@mui/material/DialogContentText';
import { MESSAGES, SCHEME_TEXTS } from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { showAlert } from '../../lib/app-state';
import type { useDeleteScheme } from './api';

const texts = SCHEME_TEXTS.generation;

/**
 * 'Delete Scheme {id}': cancelling a scheme cannot be undone, so it is confirmed first. A
 * refusal shows inline as 'Error in deleting this scheme.'. Mounted while open; `onClose` once
 * cancelled or deleted. The change is the screen's: a press whose outcome is unknown, pressed
 * again in a dialog opened anew, is the same action.
 */
export function DeleteSchemeDialog({
  schemeid,
  remove,
  onClose,
}: {
  schemeid: number;
  remove: ReturnType<typeof useDeleteScheme>;
  onClose: () => void;
}) {
  const confirm = () =>
    remove.submit(schemeid, {
      onSuccess: (body) => {
        onClose();
        if (body.message) showAlert('success', body.message);
      },
    });

  return (
    <ConfirmDialog
      title={texts.deleteTitle(schemeid)}
      cancelLabel={texts.cancel}
      confirmLabel={texts.confirm}
      pendingLabel={texts.deleting}
      pending={remove.isPending}
      error={remove.error && MESSAGES.schemeDeleteFailed}
      danger
      onConfirm={confirm}
      onCancel={onClose}
    >
      <DialogContentText>{MESSAGES.deleteSchemeQuestion}</DialogContentText>
    </ConfirmDialog>
  );
}
