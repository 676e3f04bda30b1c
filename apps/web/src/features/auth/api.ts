import {
  SIGN_IN_API_PATHS,
  SIGN_IN_MESSAGES,
  type LoginRequest,
  type LoginResponse,
} from '@kanak/contract';
import { api, ApiRefusal, readFailure } from '../../lib/api';

export type SignInForm = Required<LoginRequest>;

/**
 * POST /api/login/verify: `{ USERNAME, PASSWORD, stayLoggedIn }` -> `{ accessToken, username }`,
 * and `mustChangePassword` for a temporary password.
 * (No TanStack Query here: the login page stays small.)
 */
export async function signIn(form: SignInForm) {
  const { data } = await api.post<LoginResponse>(SIGN_IN_API_PATHS.login, form);
  if (!data.success || !data.accessToken) throw new ApiRefusal(data.message ?? '');
  return {
    accessToken: data.accessToken,
    username: data.username ?? form.USERNAME.trim(),
    mustChangePassword: data.mustChangePassword === true,
  };
}

/**
 * 401 -> 'Invalid credentials.'; a lockout (429) says why; a server that could not be reached
 * says so (else it reads as a wrong password, and retrying it trips the lockout); anything else
 * is generic.
 */
export function signInErrorMessage(error: unknown): string {
  const failure = readFailure(error);
  if (failure.kind === 'exception' && failure.unreachable) {
    return `${SIGN_IN_MESSAGES.loginFailed} ${SIGN_IN_MESSAGES.loginUnreachable}`;
  }
  if (failure.kind !== 'refused') return SIGN_IN_MESSAGES.loginFailed;
  if (failure.status === 401) return SIGN_IN_MESSAGES.invalidCredentials;
  if (failure.status === 429) return failure.message ?? SIGN_IN_MESSAGES.tooManyRequests;
  return SIGN_IN_MESSAGES.loginFailed;
}
