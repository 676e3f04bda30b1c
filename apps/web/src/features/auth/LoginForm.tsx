import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS, UI_TEXTS } from '@kanak/contract';
import {
  setLoginNotice,
  setPasswordChangeDue,
  showAlert,
  useLoginNotice,
} from '../../lib/app-state';
import { deepLinkOf, startSession, takeReturnPlace } from '../../lib/session';
import { PATHS } from '../../lib/paths';
import { PlainTextField } from '../../components/PlainTextField';
import { signIn, signInErrorMessage, type SignInForm } from './api';

const texts = UI_TEXTS.login;

/** Username, password, 'Stay logged in' and Login. Credentials are checked by the server only. */
export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const notice = useLoginNotice();
  const [form, setForm] = useState<SignInForm>({ USERNAME: '', PASSWORD: '', stayLoggedIn: false });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);

  // Editing any field clears the error.
  const edit = (patch: Partial<SignInForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setError(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setLoginNotice(null);
    setError(null);
    setPending(true);
    try {
      const { accessToken, username, mustChangePassword } = await signIn(form);
      startSession({ accessToken, user: username, stayLoggedIn: form.stayLoggedIn });
      // A temporary password: the signed-in app shows only "Change your password" first.
      setPasswordChangeDue(mustChangePassword);
      // Back to the address opened while signed out, or the screen the expired session left.
      const place = takeReturnPlace();
      void navigate(deepLinkOf(location.state) ?? place?.path ?? PATHS.home, { replace: true });
      if (place?.unsavedChange) showAlert('warning', texts.lastChangeNotSaved);
    } catch (failure) {
      setError(signInErrorMessage(failure));
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  // Enter anywhere in the form submits it, the checkbox included.
  const submitOnEnter = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Enter' || event.target instanceof HTMLButtonElement) return;
    event.preventDefault();
    event.currentTarget.requestSubmit();
  };

  return (
    <form onSubmit={(event) => void submit(event)} onKeyDown={submitOnEnter} noValidate>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {notice && (
          <Typography
            role="status"
            sx={{
              p: 1.5,
              borderRadius: 2,
              bgcolor: '#e8f0f7',
              color: 'info.dark',
              fontWeight: 500,
            }}
          >
            {notice}
          </Typography>
        )}
        <PlainTextField
          label={texts.username}
          name="username"
          value={form.USERNAME}
          onChange={(USERNAME) => edit({ USERNAME })}
          autoComplete="username"
          autoFocus
          maxLength={LIMITS.usernameMaxLength}
        />
        <PlainTextField
          label={texts.password}
          name="password"
          type="password"
          value={form.PASSWORD}
          onChange={(PASSWORD) => edit({ PASSWORD })}
          autoComplete="current-password"
          error={error}
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
          disabled={pending}
          startIcon={
            pending ? (
              <CircularProgress size={20} color="inherit" aria-label={texts.pending} />
            ) : undefined
          }
        >
          {texts.submit}
        </Button>
      </Box>
    </form>
  );
}
