import { useEffect, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS, MESSAGES, PASSWORD_CHANGE_TEXTS, UI_TEXTS } from '@kanak/contract';
import { SubmitButton } from '../../components/SubmitButton';
import { logout, readFailure } from '../../lib/api';
import { setPasswordChangeDue, showAlert, useActiveUser } from '../../lib/app-state';
import { meQuery } from '../../lib/me';
import { useChangePassword } from '../../lib/password';

const texts = PASSWORD_CHANGE_TEXTS;

type Field = 'oldpassword' | 'newpassword' | 'confirm';

/** The server's refusals about the new password; any other is about the temporary one. */
const NEW_PASSWORD_MESSAGES: readonly string[] = [
  MESSAGES.passwordLength,
  MESSAGES.passwordMustDiffer,
  MESSAGES.passwordTooCommon,
  MESSAGES.provideNewPassword,
];

/**
 * A temporary password (a new account, a reset) leads here and nowhere else: the staff
 * member types it once more, then their own password twice. The server's rules decide; its
 * message shows under the field it is about. Then the app opens.
 */
export function ChangePasswordPage() {
  const username = useActiveUser();
  const queryClient = useQueryClient();
  const change = useChangePassword();
  const [form, setForm] = useState({ oldpassword: '', newpassword: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  useEffect(() => {
    document.title = `${texts.title} | ${UI_TEXTS.productName}`;
  }, []);

  const edit = (field: Field, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors({});
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.oldpassword) return setErrors({ oldpassword: MESSAGES.provideOldPassword });
    if (!form.newpassword) return setErrors({ newpassword: MESSAGES.provideNewPassword });
    if (form.confirm !== form.newpassword) return setErrors({ confirm: texts.mismatch });
    change.submit(
      { username, oldpassword: form.oldpassword, newpassword: form.newpassword },
      {
        onSuccess: (data) => {
          setPasswordChangeDue(false);
          const me = queryClient.getQueryData(meQuery.queryKey);
          if (me) queryClient.setQueryData(meQuery.queryKey, { ...me, mustChangePassword: false });
          showAlert('success', data.message ?? MESSAGES.passwordUpdated);
        },
        onError: (error) => {
          const failure = readFailure(error);
          if (failure.kind === 'refused') {
            const message = failure.message ?? MESSAGES.updateUserFailed;
            setErrors(
              NEW_PASSWORD_MESSAGES.includes(message)
                ? { newpassword: message }
                : { oldpassword: message },
            );
          } else if (failure.kind === 'exception') {
            showAlert('warning', MESSAGES.updateUserFailed);
          }
        },
      },
    );
  };

  const passwordField = (field: Field, label: string, autoComplete: string) => (
    <TextField
      label={label}
      name={field}
      type="password"
      value={form[field]}
      onChange={(event) => edit(field, event.target.value)}
      autoComplete={autoComplete}
      required
      error={Boolean(errors[field])}
      helperText={errors[field]}
      slotProps={{
        htmlInput: { maxLength: field === 'oldpassword' ? 128 : LIMITS.passwordMaxLength },
        formHelperText: { role: 'alert' },
      }}
    />
  );

  return (
    <Box component="main" sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper
        component="form"
        variant="outlined"
        noValidate
        onSubmit={submit}
        sx={{ p: { xs: 2, sm: 4 }, width: '100%', maxWidth: 440 }}
      >
        <Stack spacing={2.5}>
          <Typography variant="h5" component="h1">
            {texts.title}
          </Typography>
          <Typography>{texts.intro}</Typography>
          {/* For password managers: whose password this is. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={username}
            readOnly
            hidden
          />
          {passwordField('oldpassword', texts.currentPassword, 'current-password')}
          {passwordField('newpassword', texts.newPassword, 'new-password')}
          {passwordField('confirm', texts.confirmPassword, 'new-password')}
          <Stack direction="row" spacing={2}>
            <SubmitButton pending={change.isPending} pendingLabel={texts.pending}>
              {texts.submit}
            </SubmitButton>
            <Button type="button" variant="outlined" onClick={logout}>
              {texts.logout}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Box>
  );
}
