import { storage, type StoredSession } from './storage';
import { appState, setActiveUser, setImageCount, setLoginNotice } from './app-state';

/** How to get back to the login screen; the router replaces this with a client-side move. */
let goToLogin: () => void = () => window.location.assign('/');
const endListeners = new Set<() => void>();

export function setLoginRedirect(redirect: () => void): void {
  goToLogin = redirect;
}

/** Runs `listener` whenever a session ends (e.g. to drop cached server data). */
export function onSessionEnd(listener: () => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

export function isSignedIn(): boolean {
  return storage.getToken() !== null;
}

/** After a successful sign-in. */
export function startSession(session: StoredSession): void {
  storage.saveSession(session);
  setLoginNotice(null);
  setActiveUser(session.user);
}

/** Restores the active user's name after a reload (the token is still stored). */
export function resumeSession(): void {
  if (!appState.get().activeUser) setActiveUser(storage.getUser() ?? '');
}

/** Logout, or an expired session (then with a notice for the login screen). */
export function endSession(notice: string | null = null): void {
  storage.clear();
  setActiveUser('');
  setImageCount(0);
  setLoginNotice(notice);
  goToLogin();
  for (const listener of endListeners) listener();
}
