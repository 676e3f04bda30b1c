import { useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { SIGN_IN_MESSAGES } from '@kanak/contract';
import { newIdempotencyKey, readFailure } from './api';
import { reportFailure } from './failure';
import { keepUnsurePress, readUnsurePress, type UnsurePress } from './drafts';

export interface ChangeCallbacks<TData> {
  onSuccess?: (data: TData) => void;
  onError?: (error: unknown) => void;
}

export interface Change<TInput, TData> {
  /**
   * Sends one user action. Ignored while the previous one is still on its way, so a double
   * click or a second Enter never sends a second request: the first answer is the one shown.
   */
  submit: (input: TInput, callbacks?: ChangeCallbacks<TData>) => void;
  /** For rendering (spinner, disabled buttons); the guard itself does not wait for a render. */
  isPending: boolean;
  /** Whether an action is on its way, read at once (for guards spanning several changes). */
  isRunning: () => boolean;
  /**
   * Why the last press did nothing, in words for the screen: the server's refusal, or the
   * change's `failed` text when the call could not be made; null after a success, a new press,
   * a reset, or a signed-out session (the sign-in screen says that).
   */
  error: string | null;
  reset: () => void;
}

/** The words for a failed press: the refusal's own, else the change's fixed text. */
function failureText(error: unknown, failed: string): string | null {
  const failure = readFailure(error);
  if (failure.kind === 'sessionExpired') return null;
  if (failure.kind === 'refused') return failure.message ?? failed;
  return failure.unreachable ? `${failed} ${SIGN_IN_MESSAGES.serverUnreachable}` : failed;
}

/**
 * A change the user makes with one press (UPDATE, SAVE, Activate...): one action is one
 * request. The guard is set synchronously, before the request, not by the re-render that
 * disables the button. The Idempotency-Key is made once per action; when its outcome is
 * unknown (no answer, a 5xx), pressing again with the same values sends the same key, so the
 * server does it at most once and answers the repeat with the first result. With `keptAs`
 * (a screen whose typed entry outlives it as a draft), that key outlives the screen too.
 */
export function useChange<TInput, TData>(
  send: (input: TInput, idempotencyKey: string) => Promise<TData>,
  options: {
    onSuccess?: (data: TData, input: TInput) => unknown;
    keptAs?: string;
    /** What `error` says when the call could not be made (or was refused without words). */
    failed?: string;
    /**
     * A press whose call could not be made (no answer, a 5xx) is told as the app's error alert,
     * as on every screen, not in `error`: a dialog's line then keeps only a refusal, which the
     * user can correct there.
     */
    unmadeAsAlert?: boolean;
  } = {},
): Change<TInput, TData> {
  const mutation = useMutation({
    mutationFn: ({ input, key }: { input: TInput; key: string }) => send(input, key),
    onSuccess: (data, { input }) => options.onSuccess?.(data, input),
  });
  const running = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [keptPress] = useState(() => (options.keptAs ? readUnsurePress(options.keptAs) : null));
  const unsure = useRef<UnsurePress | null>(keptPress);
  const remember = (press: UnsurePress | null) => {
    unsure.current = press;
    if (options.keptAs) keepUnsurePress(options.keptAs, press);
  };

  const submit = (input: TInput, callbacks: ChangeCallbacks<TData> = {}) => {
    if (running.current) return;
    running.current = true;
    setError(null);
    const body = JSON.stringify(input);
    const key = unsure.current?.body === body ? unsure.current.key : newIdempotencyKey();
    mutation.mutateAsync({ input, key }).then(
      (data) => {
        remember(null);
        running.current = false;
        callbacks.onSuccess?.(data);
      },
      (error: unknown) => {
        // Refused or signed out: nothing was done, so a later press is a new action.
        remember(readFailure(error).kind === 'exception' ? { body, key } : null);
        running.current = false;
        if (options.unmadeAsAlert && readFailure(error).kind === 'exception') {
          reportFailure(error, options.failed ?? '');
        } else {
          setError(failureText(error, options.failed ?? '') || null);
        }
        callbacks.onError?.(error);
      },
    );
  };

  return {
    submit,
    isPending: mutation.isPending,
    isRunning: () => running.current,
    error,
    reset: () => {
      setError(null);
      mutation.reset();
    },
  };
}
