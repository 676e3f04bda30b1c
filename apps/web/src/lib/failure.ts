import { SIGN_IN_MESSAGES } from '@kanak/contract';
import { readFailure } from './api';
import { showAlert } from './app-state';

/**
 * What a refusal (the server answered `success: false`) does on this screen:
 * - `'alert'`: an error alert with the server's own words (the fixed text when it gave none);
 * - `'warn'`: the same as a warning (a search or statement that found nothing);
 * - `'fixed'`: the fixed text as an error alert, as when the call could not be made;
 * - a function: e.g. the message shown inside the open dialog, beside the field.
 */
export type OnRefused =
  'alert' | 'warn' | 'fixed' | ((message: string | null, status: number) => void);

/**
 * How a failed call is told to staff, everywhere the same: a refusal as `onRefused` says; a call
 * that could not be made (network, timeout, 5xx) an error alert with the screen's fixed text,
 * plus, when the server could not be reached at all, that it could not; an ended session
 * nothing more (the login screen already says so).
 */
export function reportFailure(error: unknown, fixed: string, onRefused: OnRefused = 'alert') {
  const failure = readFailure(error);
  if (failure.kind === 'sessionExpired') return;
  if (failure.kind === 'exception' && failure.unreachable) {
    return showAlert('error', `${fixed} ${SIGN_IN_MESSAGES.serverUnreachable}`);
  }
  if (failure.kind === 'exception' || onRefused === 'fixed') return showAlert('error', fixed);
  if (onRefused === 'alert') return showAlert('error', failure.message ?? fixed);
  if (onRefused === 'warn') return showAlert('warning', failure.message ?? fixed);
  onRefused(failure.message, failure.status);
}
