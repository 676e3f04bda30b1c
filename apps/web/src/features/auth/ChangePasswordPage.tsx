import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { LIMITS, MESSAGES, PASSWORD_CHANGE_TEXTS, UI_TEXTS } from '@kanak/contract';
import { ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { SubmitButton } from '../../components/SubmitButton';
import { logout, readFailure } from '../../lib/api';
import { setPasswordChangeDue, showAlert, useActiveUser } from '../../lib/app-state';
import { meQuery } from '../../lib/me';
import { useChangePassword } from '../../lib/password';

const texts = PASSWORD_CHANGE_TEXTS;

/**
 * The temporary password, then the new one twice: one problem at a time, the first found, so
 * staff fix the fields in order. The server's rules decide the rest.
 */
const passwordChange = z
  .object({ oldpassword: z.string(), newpassword: z.string(), confirm: z.string() })
  .superRefine((form, context) => {
    const problem = (field: Field, message: string) =>
      context.addIssue({ code: 'custom', path: [field], message });
    if (!form.oldpassword) problem('oldpassword', MESSAGES.provideOldPassword);
    else if (!form.newpassword) problem('newpassword', MESSAGES.provideNewPassword);
    else if (form.confirm !== form.newpassword) problem('confirm', texts.mismatch);
  });
type PasswordChange = z.infer<typeof passwordChange>;
type Field = keyof PasswordChange;

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
  // A message stays until any field is edited.
  const form = useSchemaForm(
    passwordChange,
    { oldpassword: '', newpassword: '', confirm: '' },
    { reValidateMode: 'onSubmit' },
  );

  useEffect(() => {
    document.title = `${texts.title} | ${UI_TEXTS.productName}`;
  }, []);

  const submit = ({ oldpassword, newpassword }: PasswordChange) =>
    change.submit(
      { username, oldpassword, newpassword },
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
            form.setError(NEW_PASSWORD_MESSAGES.includes(message) ? 'newpassword' : 'oldpassword', {
              message,
            });
          } else if (failure.kind === 'exception') {
            showAlert('warning', MESSAGES.updateUserFailed);
          }
        },
      },
    );

  const passwordField = (field: Field, label: string, autoComplete: string) => {
    const registered = form.register(field);
    return (
      <FormField<PasswordChange>
        name={field}
        label={label}
        type="password"
        onChange={(event) => {
          form.clearErrors();
          return registered.onChange(event);
        }}
        autoComplete={autoComplete}
        required
        slotProps={{
          // The label sits in the empty field, as on the sign-in page.
          inputLabel: { shrink: undefined },
          htmlInput: { maxLength: field === 'oldpassword' ? 128 : LIMITS.passwordMaxLength },
          formHelperText: { role: 'alert' },
        }}
      />
    );
  };

  return (
    <Box component="main" sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, width: '100%', maxWidth: 440 }}>
        <ChangeForm form={form} change={change} onSubmit={submit}>
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
              <SubmitButton pendingLabel={texts.pending}>{texts.submit}</SubmitButton>
              <Button type="button" variant="outlined" onClick={logout}>
                {texts.logout}
              </Button>
            </Stack>
          </Stack>
        </ChangeForm>
      </Paper>
    </Box>
  );
}
