/**
 * The messages the sign-in page and the API client read, in a module of their own: the first
 * page a browser loads then carries these few texts, not every message of every screen.
 * MESSAGES holds them too.
 */
export const SIGN_IN_MESSAGES = {
  invalidCredentials: 'Invalid credentials.',
  loginFailed: 'Error in logging in.',
  sessionExpired: 'Session expired. Please sign in again.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  /** A repeat of a change (same Idempotency-Key) arriving while the first attempt still runs. */
  idempotencyInProgress: 'This request is still being processed. Please wait a moment.',
} as const;
