/**
 * The messages the sign-in page and the API client read, in a module of their own: the first
 * page a browser loads then carries these few texts, not every message of every screen.
 * MESSAGES holds them too.
 */
export const SIGN_IN_MESSAGES = {
  invalidCredentials: 'Invalid credentials.',
  loginFailed: 'Error in logging in.',
  /** Added to a sign-in failure when no answer came: not a wrong password, no attempt counted. */
  loginUnreachable:
    'The server could not be reached, so your password was not checked. Check the network and try again.',
  /**
   * Added to a screen's failure text when no answer came. Said of loads and changes alike, and
   * without "nothing was saved": a connection dropped after sending may still have been saved
   * (pressing again in the same dialog resends its Idempotency-Key, so it is made once).
   */
  serverUnreachable: 'The server could not be reached. Check the network and try again.',
  sessionExpired: 'Session expired. Please sign in again.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  /** A repeat of a change (same Idempotency-Key) arriving while the first attempt still runs. */
  idempotencyInProgress: 'This request is still being processed. Please wait a moment.',
} as const;
