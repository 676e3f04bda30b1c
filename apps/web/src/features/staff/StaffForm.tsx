import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import {
  ROLE_LABELS,
  STAFF_TEXTS,
  staffAddRequest,
  type Branch,
  type Role,
  type StaffAccount,
  type StaffAddRequest,
} from '@kanak/contract';
import { showAlert } from '../../lib/app-state';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
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
  // Editing sends the update, adding the add: the form shows the one it sends.
  const save = account ? update : add;
  const form = useSchemaForm(
    staffAddRequest,
    account
      ? {
          username: account.username,
          name: account.name,
          role: account.role,
          branch: account.branch,
        }
      : { username: '', name: '', role: roles.at(-1) ?? 'cashier', branch: branches[0]?.code },
  );

  const submit = (values: StaffAddRequest) => {
    if (account) {
      update.submit(
        { username: account.username, name: values.name, role: values.role, branch: values.branch },
        {
          onSuccess: (answer) => {
            if (answer.message) showAlert('success', answer.message);
            onClose();
          },
        },
      );
    } else {
      add.submit(values, {
        onSuccess: (answer) => {
          if (answer.message) showAlert('success', answer.message);
          onAdded(answer.data.username, answer.data.temporaryPassword);
        },
      });
    }
  };

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <ChangeForm form={form} change={save} onSubmit={submit}>
        <DialogTitle>{account ? texts.editTitle(account.username) : texts.addTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormField<StaffAddRequest>
              name="username"
              label={texts.username}
              autoComplete="off"
              slotProps={{ htmlInput: { readOnly: account !== null, spellCheck: false } }}
            />
            <FormField<StaffAddRequest> name="name" label={texts.name} autoComplete="off" />
            <FormField<StaffAddRequest>
              name="role"
              label={texts.role}
              select
              slotProps={{ select: { native: true } }}
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </FormField>
            <FormField<StaffAddRequest>
              name="branch"
              label={texts.branch}
              select
              slotProps={{ select: { native: true } }}
            >
              {branches.map((branch) => (
                <option key={branch.code} value={branch.code}>
                  {`${branch.code} · ${branch.name}`}
                </option>
              ))}
            </FormField>
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
