import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { Controller } from 'react-hook-form';
import { INTEGRATION_TEXTS, POS_LIMITS, apiKeyAddRequest } from '@kanak/contract';
import type { z } from 'zod';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useBranchList } from '../../lib/branches';
import { useAddApiKey } from './api';

const texts = INTEGRATION_TEXTS;

type NewKey = z.input<typeof apiKeyAddRequest>;

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
  // The branch stays unchosen (the first one shown) until staff pick one; a message under the
  // label stays until the next press.
  const form = useSchemaForm(
    apiKeyAddRequest,
    { label: '', branch: undefined },
    { reValidateMode: 'onSubmit' },
  );
  const choices = (branches.data ?? []).map((b) => ({
    value: b.code,
    label: `${b.code} · ${b.name}`,
  }));
  const first = choices[0]?.value ?? '';

  const submit = ({ label, branch }: z.output<typeof apiKeyAddRequest>) => {
    const made = { label, branch: branch ?? first };
    add.submit(made, { onSuccess: (answer) => onMade(made.label, answer.data.key) });
  };

  return (
    <Dialog open onClose={add.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <ChangeForm form={form} change={add} onSubmit={submit}>
        <DialogTitle>{texts.addTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormField<NewKey>
              name="label"
              label={texts.label}
              help={texts.labelHelp}
              slotProps={{ htmlInput: { maxLength: POS_LIMITS.apiKeyLabelMaxLength } }}
            />
            <Controller
              control={form.control}
              name="branch"
              render={({ field: branch }) => (
                <SelectField
                  label={texts.branch}
                  name={branch.name}
                  value={branch.value || first}
                  options={choices}
                  onChange={branch.onChange}
                />
              )}
            />
            <ChangeError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={add.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
        </DialogActions>
      </ChangeForm>
    </Dialog>
  );
}
