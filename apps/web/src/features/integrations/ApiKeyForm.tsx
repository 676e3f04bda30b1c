import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { INTEGRATION_TEXTS, POS_LIMITS, apiKeyAddRequest } from '@kanak/contract';
import { readFailure } from '../../lib/api';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useBranchList } from '../../lib/branches';
import { useAddApiKey } from './api';

const texts = INTEGRATION_TEXTS;

/** Make a key: a label and the branch its sales belong to; the key itself comes back once. */
export function ApiKeyForm({
  onClose,
  onMade,
}: {
  onClose: () => void;
  onMade: (label: string, key: string) => void;
}) {
  const add = useAddApiKey();
  const branches = useBranchList();
  const [label, setLabel] = useState('');
  const [branch, setBranch] = useState('');
  const [labelError, setLabelError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const choices = (branches.data ?? []).map((b) => ({
    value: b.code,
    label: `${b.code} · ${b.name}`,
  }));
  const chosen = branch || choices[0]?.value || '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const checked = apiKeyAddRequest.safeParse({ label, branch: chosen || undefined });
    if (!checked.success) {
      setLabelError(checked.error.issues[0]?.message ?? texts.saveFailed);
      return;
    }
    setLabelError(null);
    const form = { label: checked.data.label, branch: chosen };
    add.submit(form, {
      onSuccess: (answer) => onMade(form.label, answer.data.key),
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'refused') setRefusal(failure.message ?? texts.saveFailed);
        else if (failure.kind === 'exception') setRefusal(texts.saveFailed);
      },
    });
  };

  return (
    <Dialog open onClose={add.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{texts.addTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label={texts.label}
              name="label"
              value={label}
              onChange={(event) => setLabel(event.target.value)}
              error={Boolean(labelError)}
              helperText={labelError ?? texts.labelHelp}
              slotProps={{
                inputLabel: { shrink: true },
                htmlInput: { maxLength: POS_LIMITS.apiKeyLabelMaxLength },
              }}
              fullWidth
            />
            <SelectField
              label={texts.branch}
              name="branch"
              value={chosen}
              options={choices}
              onChange={setBranch}
            />
            {refusal && (
              <Alert severity="error" role="alert">
                {refusal}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={add.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pending={add.isPending} pendingLabel={texts.saving}>
            {texts.save}
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
