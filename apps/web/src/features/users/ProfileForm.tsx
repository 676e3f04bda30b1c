import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FieldErrors } from 'react-hook-form';
import { z } from 'zod';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOffOutlined';
import { LIMITS, MESSAGES, UI_TEXTS } from '@kanak/contract';
import { ChangeForm, useSchemaForm } from '../../components/ChangeForm';
import { SubmitButton } from '../../components/SubmitButton';
import { readFailure } from '../../lib/api';
import { showAlert, useActiveUser } from '../../lib/app-state';
import { useChangePassword } from '../../lib/password';

const texts = UI_TEXTS.profile;

/** Both passwords are needed; the server checks the rest. */
const profileForm = z.object({
  username: z.string(),
  oldpassword: z.string().min(1, { error: MESSAGES.provideOldPassword }),
  newpassword: z.string().min(1, { error: MESSAGES.provideNewPassword }),
});
type ProfileFormValues = z.infer<typeof profileForm>;

/** The server's refusals that are about the new password; any other shows under the old one. */
const NEW_PASSWORD_MESSAGES: readonly string[] = [
  MESSAGES.passwordLength,
  MESSAGES.passwordMustDiffer,
  MESSAGES.passwordTooCommon,
];

/** Username (read-only), old and new password, Update and Cancel. */
export function ProfileForm() {
  const username = useActiveUser();
  const update = useChangePassword();
  const blank: ProfileFormValues = { username, oldpassword: '', newpassword: '' };
  const form = useSchemaForm(profileForm, blank);
  const { register, reset, setError, clearErrors, formState } = form;
  const { errors } = formState;
  const serverError = errors.root?.server?.message;
  const serverErrorField =
    serverError && NEW_PASSWORD_MESSAGES.includes(serverError) ? 'new' : 'old';
  const oldError = serverErrorField === 'old' ? serverError : undefined;
  const newError = serverErrorField === 'new' ? serverError : undefined;
  const [showPasswords, setShowPasswords] = useState(false);

  // Editing any field clears the server's message (kept by the form, beside the field it is about).
  const field = (name: 'oldpassword' | 'newpassword') =>
    register(name, { onChange: () => clearErrors('root.server') });

  const visibilityToggle = {
    endAdornment: (
      <InputAdornment position="end">
        <IconButton
          edge="end"
          aria-label={showPasswords ? texts.hidePasswords : texts.showPasswords}
          aria-pressed={showPasswords}
          onClick={() => setShowPasswords((shown) => !shown)}
        >
          {showPasswords ? <VisibilityOffIcon /> : <VisibilityIcon />}
        </IconButton>
      </InputAdornment>
    ),
  };

  const warnMissing = (missing: FieldErrors<ProfileFormValues>) => {
    if (missing.newpassword?.message) showAlert('warning', missing.newpassword.message);
    if (missing.oldpassword?.message) showAlert('warning', missing.oldpassword.message);
  };

  const save = (values: ProfileFormValues) =>
    update.submit(values, {
      onSuccess: (data) => {
        reset(blank);
        showAlert('success', data.message ?? MESSAGES.passwordUpdated);
      },
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'refused') {
          setError('root.server', { message: failure.message ?? MESSAGES.updateUserFailed });
        } else if (failure.kind === 'exception') {
          // The fixed text alone, as a warning: the fields hold nothing wrong.
          showAlert('warning', MESSAGES.updateUserFailed);
        }
      },
    });

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 480 }}>
      <ChangeForm form={form} change={update} onSubmit={save} onInvalid={warnMissing}>
        <Stack spacing={2.5}>
          <TextField
            label={texts.username}
            {...register('username')}
            autoComplete="username"
            slotProps={{ htmlInput: { readOnly: true, maxLength: LIMITS.usernameMaxLength } }}
          />
          <TextField
            label={texts.oldPassword}
            type={showPasswords ? 'text' : 'password'}
            {...field('oldpassword')}
            autoComplete="current-password"
            error={Boolean(errors.oldpassword) || Boolean(oldError)}
            helperText={oldError}
            slotProps={{
              htmlInput: { maxLength: LIMITS.passwordMaxLength },
              input: visibilityToggle,
              formHelperText: { role: 'alert' },
            }}
          />
          <TextField
            label={texts.newPassword}
            type={showPasswords ? 'text' : 'password'}
            {...field('newpassword')}
            autoComplete="new-password"
            error={Boolean(errors.newpassword) || Boolean(newError)}
            helperText={newError}
            slotProps={{
              htmlInput: { maxLength: LIMITS.passwordMaxLength },
              input: visibilityToggle,
              formHelperText: { role: 'alert' },
            }}
          />
          <Stack direction="row" spacing={2}>
            <SubmitButton pendingLabel={texts.pending}>{texts.submit}</SubmitButton>
            <Button
              type="button"
              variant="outlined"
              disabled={update.isPending}
              onClick={() => {
                reset(blank);
                update.reset();
              }}
            >
              {texts.reset}
            </Button>
          </Stack>
        </Stack>
      </ChangeForm>
    </Paper>
  );
}
