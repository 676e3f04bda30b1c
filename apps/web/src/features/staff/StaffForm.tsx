import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  ROLE_LABELS,
  STAFF_TEXTS,
  staffAddRequest,
  type Branch,
  type Role,
  type StaffAccount,
  type StaffAddRequest,
} from '@kanak/contract';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { SubmitButton } from '../../components/SubmitButton';
import { useAddStaff, useUpdateStaff } from './api';

const texts = STAFF_TEXTS;

interface StaffFormProps {
  /** The account to edit; null adds one. */
  account: StaffAccount | null;
  /** The roles the signed-in staff member may give. */
  roles: readonly Role[];
  /** The branches they may choose. */
  branches: readonly Pick<Branch, 'code' | 'name'>[];
  /** A new account's temporary password, to show once. */
  onAdded: (username: string, temporaryPassword: string) => void;
  onClose: () => void;
}

/** Add an account (username, name, role, branch), or edit one's name, role and branch. */
export function StaffForm({ account, roles, branches, onAdded, onClose }: StaffFormProps) {
  const add = useAddStaff();
  const update = useUpdateStaff();
  const pending = add.isPending || update.isPending;
  const [refusal, setRefusal] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<StaffAddRequest>({
    resolver: zodResolver(staffAddRequest),
    defaultValues: account
      ? {
          username: account.username,
          name: account.name,
          role: account.role,
          branch: account.branch,
        }
      : { username: '', name: '', role: roles.at(-1) ?? 'cashier', branch: branches[0]?.code },
  });
  const { errors } = formState;

  const refused = (error: unknown) => {
    const failure = readFailure(error);
    if (failure.kind === 'refused') setRefusal(failure.message ?? texts.changeFailed);
    else if (failure.kind === 'exception') setRefusal(texts.changeFailed);
  };

  const submit = (values: StaffAddRequest) => {
    setRefusal(null);
    if (account) {
      update.submit(
        { username: account.username, name: values.name, role: values.role, branch: values.branch },
        {
          onSuccess: (answer) => {
            if (answer.message) showAlert('success', answer.message);
            onClose();
          },
          onError: refused,
        },
      );
    } else {
      add.submit(values, {
        onSuccess: (answer) => {
          if (answer.message) showAlert('success', answer.message);
          onAdded(answer.data.username, answer.data.temporaryPassword);
        },
        onError: refused,
      });
    }
  };

  return (
    <Dialog open onClose={pending ? undefined : onClose} fullWidth maxWidth="sm">
      <form onSubmit={handleSubmit(submit)} noValidate>
        <DialogTitle>{account ? texts.editTitle(account.username) : texts.addTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label={texts.username}
              {...register('username')}
              error={Boolean(errors.username)}
              helperText={errors.username?.message}
              autoComplete="off"
              slotProps={{
                inputLabel: { shrink: true },
                htmlInput: { readOnly: account !== null, spellCheck: false },
              }}
            />
            <TextField
              label={texts.name}
              {...register('name')}
              error={Boolean(errors.name)}
              helperText={errors.name?.message}
              autoComplete="off"
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              select
              label={texts.role}
              {...register('role')}
              error={Boolean(errors.role)}
              helperText={errors.role?.message}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </TextField>
            <TextField
              select
              label={texts.branch}
              {...register('branch')}
              error={Boolean(errors.branch)}
              helperText={errors.branch?.message}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              {branches.map((branch) => (
                <option key={branch.code} value={branch.code}>
                  {`${branch.code} · ${branch.name}`}
                </option>
              ))}
            </TextField>
            {refusal && (
              <Alert severity="error" role="alert">
                {refusal}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            {texts.cancel}
          </Button>
          <SubmitButton pending={pending} pendingLabel={texts.saving}>
            {texts.save}
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
