import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useFormChange } from './ChangeForm';

export interface SubmitButtonProps extends Omit<ButtonProps, 'startIcon'> {
  /**
   * A request of this button's action is on its way: spinner, and the button is disabled.
   * Inside a ChangeForm it is the form's change unless given.
   */
  pending?: boolean;
  /** Names the spinner (e.g. "Saving"), so the button's name says what is going on. */
  pendingLabel: string;
  startIcon?: ButtonProps['startIcon'];
}

/**
 * The button that sends a change (UPDATE, SAVE, CONFIRM...): a submit button by default,
 * contained, disabled with a spinner while pending. Disabling waits for a render, so the
 * action behind it must also guard itself (see useChange).
 */
export function SubmitButton({
  pending: pendingGiven,
  pendingLabel,
  disabled,
  startIcon,
  type = 'submit',
  variant = 'contained',
  ...props
}: SubmitButtonProps) {
  const change = useFormChange();
  const pending = pendingGiven ?? change?.isPending ?? false;
  return (
    <Button
      type={type}
      variant={variant}
      disabled={pending || disabled}
      startIcon={
        pending ? (
          <CircularProgress size={18} color="inherit" aria-label={pendingLabel} />
        ) : (
          startIcon
        )
      }
      {...props}
    />
  );
}
