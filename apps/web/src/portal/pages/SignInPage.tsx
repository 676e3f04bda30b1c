import { useEffect, useState, type FormEvent } from 'react';
import { MEMBER_LIMITS, PORTAL_TEXTS } from '@kanak/contract';
import { askCode, verifyCode } from '../api';
import { DigitsField } from '../Field';
import { failureMessage } from '../http';
import { session, useSession } from '../session';

const texts = PORTAL_TEXTS.signIn;

/** The server sends one code a minute to a number: asking sooner would only be refused. */
const RESEND_AFTER_SECONDS = 60 / MEMBER_LIMITS.codesPerMinutePerMobile;

/** Seconds left until `since + RESEND_AFTER_SECONDS`, counted down once a second. */
function useSecondsLeft(since: number | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  if (since === null) return 0;
  return Math.max(0, Math.ceil(RESEND_AFTER_SECONDS - (now - since) / 1000));
}

/**
 * Sign-in by a one-time code: the mobile number, then the 6-digit code the shop sends. The
 * server's own words say why a code was refused (wrong or expired, too many tries).
 */
export function SignInPage() {
  const { notice } = useSession();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'mobile' | 'code'>('mobile');
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const secondsLeft = useSecondsLeft(sentAt);

  useEffect(() => {
    document.title = texts.title;
  }, []);

  const send = async () => {
    if (!/^\d{10}$/.test(mobile)) {
      setError(texts.mobileInvalid);
      return;
    }
    session.clearNotice();
    setError(null);
    setPending(true);
    try {
      await askCode(mobile);
      setSentAt(Date.now());
      setCode('');
      setStep('code');
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setPending(false);
    }
  };

  const check = async () => {
    if (!/^\d{6}$/.test(code)) {
      setError(texts.codeInvalid);
      return;
    }
    setError(null);
    setPending(true);
    try {
      // A right code starts the session: the portal then shows the customer's account.
      await verifyCode(mobile, code);
    } catch (failure) {
      setError(failureMessage(failure));
      setPending(false);
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    void (step === 'mobile' ? send() : check());
  };

  const spinner = (label: string) =>
    pending ? <span className="p-spinner" role="progressbar" aria-label={label} /> : null;

  return (
    <>
      <h1 className="p-title">{texts.title}</h1>
      {notice && (
        <p className="p-notice" role="status">
          {notice}
        </p>
      )}
      <form className="p-form" onSubmit={submit} noValidate>
        {step === 'mobile' ? (
          <>
            <p className="p-intro">{texts.intro}</p>
            <DigitsField
              label={texts.mobile}
              name="mobile"
              value={mobile}
              onChange={(value) => {
                setMobile(value);
                setError(null);
              }}
              digits={10}
              autoComplete="tel-national"
              help={texts.mobileHelp}
              error={error}
            />
            <button type="submit" className="p-button p-button--primary" disabled={pending}>
              {spinner(texts.sending)}
              {texts.sendCode}
            </button>
          </>
        ) : (
          <>
            <p className="p-notice" role="status">
              {texts.codeSent(mobile)}
            </p>
            <DigitsField
              label={texts.code}
              name="code"
              value={code}
              onChange={(value) => {
                setCode(value);
                setError(null);
              }}
              digits={MEMBER_LIMITS.codeDigits}
              autoComplete="one-time-code"
              help={texts.codeHelp}
              error={error}
            />
            <button type="submit" className="p-button p-button--primary" disabled={pending}>
              {spinner(texts.verifying)}
              {texts.verify}
            </button>
            <button
              type="button"
              className="p-button"
              disabled={pending || secondsLeft > 0}
              onClick={() => void send()}
            >
              {texts.resend}
            </button>
            {secondsLeft > 0 && <p className="p-help">{texts.resendIn(secondsLeft)}</p>}
            <button
              type="button"
              className="p-button p-button--text"
              onClick={() => {
                setStep('mobile');
                setError(null);
              }}
            >
              {texts.otherNumber}
            </button>
          </>
        )}
      </form>
    </>
  );
}
