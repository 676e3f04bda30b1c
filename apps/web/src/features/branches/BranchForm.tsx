import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import {
  BRANCH_TEXTS,
  RECEIPT_PAPERS,
  branchSaveRequest,
  type Branch,
  type BranchSaveRequest,
} from '@kanak/contract';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useSaveBranch } from './api';

const texts = BRANCH_TEXTS;

/** Add a branch (code, name, address, phone), or edit one: its code stays. */
export function BranchForm({ branch, onClose }: { branch: Branch | null; onClose: () => void }) {
  const save = useSaveBranch();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { register, handleSubmit, formState, control } = useForm<BranchSaveRequest>({
    resolver: zodResolver(branchSaveRequest),
    defaultValues: {
      ...(branch ?? { code: '', name: '', address: '', phone: '' }),
      receiptPaper: branch?.receiptPaper ?? 'a4',
    },
  });
  const { errors } = formState;
  const code = register('code');

  const submit = (values: BranchSaveRequest) => {
    setRefusal(null);
    save.submit(values, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
        onClose();
      },
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'refused') setRefusal(failure.message ?? texts.saveFailed);
        else if (failure.kind === 'exception') setRefusal(texts.saveFailed);
      },
    });
  };

  const field = (name: keyof BranchSaveRequest, label: string, extra: object = {}) => (
    <TextField
      label={label}
      {...register(name)}
      error={Boolean(errors[name])}
      helperText={errors[name]?.message}
      slotProps={{ inputLabel: { shrink: true } }}
      fullWidth
      {...extra}
    />
  );

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <form onSubmit={handleSubmit(submit)} noValidate>
        <DialogTitle>{branch ? texts.editTitle(branch.code) : texts.addTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label={texts.code}
              {...code}
              onChange={(event) => {
                // Codes are capital letters: typed in any case, kept in capitals.
                event.target.value = event.target.value.toUpperCase();
                return code.onChange(event);
              }}
              error={Boolean(errors.code)}
              helperText={errors.code?.message ?? texts.codeHelp}
              slotProps={{
                inputLabel: { shrink: true },
                // An existing branch's code names it: shown, never changed.
                htmlInput: { maxLength: 6, readOnly: branch !== null },
              }}
              fullWidth
            />
            {field('name', texts.name)}
            {field('address', texts.address, { multiline: true, minRows: 2 })}
            {field('phone', texts.phone, { type: 'tel' })}
            <Controller
              control={control}
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
            {refusal && (
              <Alert severity="error" role="alert">
                {refusal}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={save.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pending={save.isPending} pendingLabel={texts.saving}>
            {texts.save}
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
