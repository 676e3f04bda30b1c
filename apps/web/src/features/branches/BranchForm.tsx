import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Controller } from 'react-hook-form';
import {
  BRANCH_TEXTS,
  RECEIPT_PAPERS,
  branchSaveRequest,
  type Branch,
  type BranchSaveRequest,
} from '@kanak/contract';
import { showAlert } from '../../lib/app-state';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useSaveBranch } from './api';

const texts = BRANCH_TEXTS;

/** Add a branch (code, name, address, phone), or edit one: its code stays. */
export function BranchForm({ branch, onClose }: { branch: Branch | null; onClose: () => void }) {
  const save = useSaveBranch();
  const form = useSchemaForm(branchSaveRequest, {
    ...(branch ?? { code: '', name: '', address: '', phone: '' }),
    receiptPaper: branch?.receiptPaper ?? 'a4',
  });
  const code = form.register('code');

  const submit = (values: BranchSaveRequest) =>
    save.submit(values, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
        onClose();
      },
    });

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <ChangeForm form={form} change={save} onSubmit={submit}>
        <DialogTitle>{branch ? texts.editTitle(branch.code) : texts.addTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormField<BranchSaveRequest>
              name="code"
              label={texts.code}
              help={texts.codeHelp}
              onChange={(event) => {
                // Codes are capital letters: typed in any case, kept in capitals.
                event.target.value = event.target.value.toUpperCase();
                return code.onChange(event);
              }}
              slotProps={{
                // An existing branch's code names it: shown, never changed.
                htmlInput: { maxLength: 6, readOnly: branch !== null },
              }}
            />
            <FormField<BranchSaveRequest> name="name" label={texts.name} />
            <FormField<BranchSaveRequest>
              name="address"
              label={texts.address}
              multiline
              minRows={2}
            />
            <FormField<BranchSaveRequest> name="phone" label={texts.phone} type="tel" />
            <Controller
              control={form.control}
              name="receiptPaper"
              render={({ field: paper }) => (
                <SelectField
                  label={texts.receiptPaper}
                  name={paper.name}
                  value={paper.value ?? 'a4'}
                  options={RECEIPT_PAPERS.map((value) => ({
                    value,
                    label: texts.receiptPapers[value],
                  }))}
                  onChange={paper.onChange}
                />
              )}
            />
            <ChangeError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={save.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
        </DialogActions>
      </ChangeForm>
    </Dialog>
  );
}
