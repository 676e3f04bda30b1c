import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { LIMITS, MESSAGES, SCHEME_TEXTS, updatePanRequest } from '@kanak/contract';
import type { z } from 'zod';
import { ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { SubmitButton } from '../../components/SubmitButton';
import { reportFailure } from '../../lib/failure';
import type { useUpdatePan } from './api';

const texts = SCHEME_TEXTS.generation;

type PanValues = z.output<typeof updatePanRequest>;

interface PanDialogProps {
  /** The customer whose PAN is entered. */
  custid: number;
  save: ReturnType<typeof useUpdatePan>;
  /** Saving the PAN, or starting the scheme it was asked for. */
  pending: boolean;
  onSaved: (pan: string) => void;
  onCancel: () => void;
}

/**
 * Enter PAN: schemes of ₹16,000 or above need one. The field takes at most 10
 * characters (upper-cased); SAVE checks the format before anything is sent, and a refusal is
 * shown under the field too. Mounted while open.
 */
export function PanDialog({ custid, save, pending, onSaved, onCancel }: PanDialogProps) {
  // The message under the field stays until it is edited (then it goes) or SAVE is pressed.
  const form = useSchemaForm(updatePanRequest, { custid, pan: '' }, { reValidateMode: 'onSubmit' });
  const pan = form.register('pan');
  const error = form.formState.errors.pan?.message;

  const submit = (values: PanValues) =>
    save.submit(values, {
      onSuccess: () => onSaved(values.pan),
      onError: (failure) =>
        reportFailure(failure, MESSAGES.panUpdateFailed, () =>
          form.setError('pan', { message: MESSAGES.panUpdateRefused }),
        ),
    });

  return (
    <Dialog open onClose={pending ? undefined : onCancel} fullWidth maxWidth="xs">
      {/* Its line is the field's: a refusal is told there, in the dialog's own words. */}
      <ChangeForm form={form} change={{ isPending: pending, error: null }} onSubmit={submit}>
        <DialogTitle>{texts.panTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{MESSAGES.panDialogText}</DialogContentText>
          <FormField<PanValues>
            name="pan"
            label={texts.pan}
            help=" "
            onChange={(event) => {
              event.target.value = event.target.value.toUpperCase().slice(0, LIMITS.panLength);
              form.clearErrors('pan');
              return pan.onChange(event);
            }}
            autoFocus
            autoComplete="off"
            slotProps={{
              // Empty and unfocused, the field shows its label inside it, as MUI's fields do.
              inputLabel: { shrink: undefined },
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
          <SubmitButton pendingLabel={texts.savingPan}>{texts.save}</SubmitButton>
        </DialogActions>
      </ChangeForm>
    </Dialog>
  );
}
