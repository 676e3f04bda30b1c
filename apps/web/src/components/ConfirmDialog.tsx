import { useId, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { FormChange } from './ChangeForm';
import { SubmitButton } from './SubmitButton';

interface ConfirmDialogProps {
  title: string;
  children?: ReactNode;
  /** The question itself, read out as the dialog's description. */
  question?: ReactNode;
  /** Shown while true (the default); false closes it with its transition. */
  open?: boolean;
  /** After the dialog has gone; then the caller moves the focus back itself. */
  onClosed?: () => void;
  cancelLabel: string;
  confirmLabel: string;
  /** Names the spinner while the request is in flight. */
  pendingLabel: string;
  /** The change the dialog confirms (useChange): its pending state and its last failure. */
  change?: FormChange;
  /** In flight; the change's own unless given. */
  pending?: boolean;
  /**
   * A refusal shown inside the dialog, so staff can read it before closing; the change's own
   * unless given (null: failures are told elsewhere).
   */
  error?: string | null;
  /** Irreversible and destructive: the confirm button is red. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Confirmation before anything irreversible. CANCEL has the focus, so Enter never confirms by
 * accident; both buttons are disabled while the request is in flight.
 */
export function ConfirmDialog({
  title,
  children,
  question,
  open = true,
  onClosed,
  cancelLabel,
  confirmLabel,
  pendingLabel,
  change,
  pending = change?.isPending ?? false,
  error = change?.error ?? null,
  danger = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const questionId = useId();
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onCancel}
      fullWidth
      maxWidth="xs"
      aria-describedby={question ? questionId : undefined}
      disableRestoreFocus={onClosed !== undefined}
      slotProps={onClosed ? { transition: { onExited: onClosed } } : undefined}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {children}
        {question && <DialogContentText id={questionId}>{question}</DialogContentText>}
        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending} autoFocus>
          {cancelLabel}
        </Button>
        <SubmitButton
          type="button"
          color={danger ? 'error' : 'primary'}
          onClick={onConfirm}
          pending={pending}
          pendingLabel={pendingLabel}
        >
          {confirmLabel}
        </SubmitButton>
      </DialogActions>
    </Dialog>
  );
}
