import { useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useNavigate } from 'react-router';
import { LIMITS, UI_TEXTS } from '@kanak/contract';
import { setLoginNotice, useLoginNotice } from '../../lib/app-state';
import { startSession } from '../../lib/session';
import { PATHS } from '../../app/paths';
import { signInErrorMessage, useSignIn, type SignInForm } from './api';

const texts = UI_TEXTS.login;

/** Username, password, 'Stay logged in' and Login. Credentials are checked by the server only. */
export function LoginForm() {
  const navigate = useNavigate();
  const notice = useLoginNotice();
  const signIn = useSignIn();
  const [form, setForm] = useState<SignInForm>({ USERNAME: '', PASSWORD: '', stayLoggedIn: false });
  const error = signIn.isError ? signInErrorMessage(signIn.error) : null;

  const edit = (patch: Partial<SignInForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    if (signIn.isError) signIn.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (signIn.isPending) return;
    setLoginNotice(null);
    signIn.mutate(form, {
      onSuccess: ({ accessToken, username }) => {
        startSession({ accessToken, user: username, stayLoggedIn: form.stayLoggedIn });
        void navigate(PATHS.home, { replace: true });
      },
    });
  };

  // Enter anywhere in the form submits it, the checkbox included.
  const submitOnEnter = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Enter' || event.target instanceof HTMLButtonElement) return;
    event.preventDefault();
    event.currentTarget.requestSubmit();
  };

  return (
    <form onSubmit={submit} onKeyDown={submitOnEnter} noValidate>
      <Stack spacing={2}>
        {notice && <Alert severity="info">{notice}</Alert>}
        <TextField
          label={texts.username}
          name="username"
          value={form.USERNAME}
          onChange={(event: ChangeEvent<HTMLInputElement>) => edit({ USERNAME: event.target.value })}
          autoComplete="username"
          autoFocus
          fullWidth
          slotProps={{ htmlInput: { maxLength: LIMITS.usernameMaxLength } }}
        />
        <TextField
          label={texts.password}
          name="password"
          type="password"
          value={form.PASSWORD}
          onChange={(event: ChangeEvent<HTMLInputElement>) => edit({ PASSWORD: event.target.value })}
          autoComplete="current-password"
          fullWidth
          error={error !== null}
          helperText={error}
          slotProps={{ formHelperText: { role: 'alert' } }}
        />
        <FormControlLabel
          control={
            <Checkbox
              name="stayLoggedIn"
              checked={form.stayLoggedIn}
              onChange={(event) => edit({ stayLoggedIn: event.target.checked })}
            />
          }
          label={texts.stayLoggedIn}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={signIn.isPending}
          startIcon={
            signIn.isPending ? (
              <CircularProgress size={20} color="inherit" aria-label={texts.pending} />
            ) : undefined
          }
        >
          {texts.submit}
        </Button>
      </Stack>
    </form>
  );
}
