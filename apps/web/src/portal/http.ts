import { API_PREFIX, LIMITS, MEMBER_MESSAGES, PORTAL_TEXTS } from '@kanak/contract';
import { session } from './session';

/**
 * The portal's HTTP client: fetch with a timeout and the member token. No retries: every call
 * is the customer's own tap, and they see at once when it failed. A 401 on a call made with a
 * token ends the session (the sign-in screen shows), whatever screen made it.
 */

/** How a call failed: the server's refusal (its message is for the customer), or no answer. */
export class PortalFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'exception' | 'signedOut',
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'PortalFailure';
  }
}

/** The message a failure shows: the server's words when it refused, else the fixed text. */
export const failureMessage = (error: unknown) =>
  error instanceof PortalFailure ? error.message : PORTAL_TEXTS.loadFailed;

const messageOf = (body: unknown): string | null =>
  typeof body === 'object' &&
  body !== null &&
  'message' in body &&
  typeof body.message === 'string' &&
  body.message
    ? body.message
    : null;

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = session.token();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LIMITS.requestTimeoutMs);
  let response: Response;
  let answer: unknown = null;
  try {
    response = await fetch(API_PREFIX + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    answer = await response.json().catch(() => null);
  } catch {
    throw new PortalFailure('exception', PORTAL_TEXTS.loadFailed);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 401 && token) {
    // Only the session this call was made with: a newer sign-in stays.
    if (session.token() === token) session.end(MEMBER_MESSAGES.sessionExpired);
    throw new PortalFailure('signedOut', MEMBER_MESSAGES.sessionExpired, 401);
  }
  if (response.status >= 400 && response.status < 500)
    throw new PortalFailure(
      'refused',
      messageOf(answer) ?? PORTAL_TEXTS.loadFailed,
      response.status,
    );
  if (!response.ok || answer === null)
    throw new PortalFailure('exception', PORTAL_TEXTS.loadFailed, response.status);
  if (typeof answer === 'object' && 'success' in answer && answer.success === false)
    throw new PortalFailure('refused', messageOf(answer) ?? PORTAL_TEXTS.loadFailed, 200);
  return answer as T;
}

/** GET and POST on the API, typed by the caller with the contract's answer. */
export const api = {
  get: <T>(path: string) => call<T>('GET', path),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body),
};
