import { storage, type StoredSession } from './storage';
import { appState, setActiveUser, setImageCount, setLoginNotice } from './app-state';

/** How to get back to the login screen; the router replaces this with a client-side move. */
let goToLogin: () => void = () => window.location.assign('/');
/** How a session ended: `expired` (not a logout), and whose it was. */
export interface SessionEnd {
  expired: boolean;
  user: string;
}

const endListeners = new Set<(end: SessionEnd) => void>();

export function setLoginRedirect(redirect: () => void): void {
  goToLogin = redirect;
}

/** Runs `listener` whenever a session ends (e.g. to drop cached server data). */
export function onSessionEnd(listener: (end: SessionEnd) => void): () => void {
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

/**
 * Where to go after the next sign-in, kept for this tab: the screen an expired session left,
 * with whether a change was lost on the way.
 */
const RETURN_KEY = 'kanak.returnTo';

export interface ReturnPlace {
  path: string;
  /** The request that met the expired session was a change: it was not saved. */
  unsavedChange: boolean;
}

/** Only screens of this app, so a crafted link cannot send a user elsewhere after sign-in. */
const isAppPath = (path: string) => /^\/home(\/[\w-]*)*(\?[^#]*)?$/.test(path);

/** Where drafts of forms are kept in sessionStorage (see drafts.ts). */
export const DRAFT_PREFIX = 'kanak.draft.';

/** A logout: nothing of this user's work stays in the tab (the return place, form drafts). */
function forgetKeptWork(): void {
  try {
    const kept = Object.keys(window.sessionStorage).filter(
      (key) => key === RETURN_KEY || key.startsWith(DRAFT_PREFIX),
    );
    for (const key of kept) window.sessionStorage.removeItem(key);
  } catch {
    // Storage blocked: nothing was kept either.
  }
}

/** What the login screen is given when a signed-out user opened an address under /home. */
export interface LoginState {
  returnTo: string;
}

/** The address a signed-out user opened, from the login screen's router state. */
export function deepLinkOf(state: unknown): string | null {
  const returnTo =
    typeof state === 'object' && state !== null && 'returnTo' in state ? state.returnTo : null;
  return typeof returnTo === 'string' && isAppPath(returnTo) ? returnTo : null;
}

function rememberReturnPlace(place: ReturnPlace): void {
  if (!isAppPath(place.path)) return;
  try {
    window.sessionStorage.setItem(RETURN_KEY, JSON.stringify(place));
  } catch {
    // Storage blocked: the next sign-in lands on the Dashboard, as before.
  }
}

/** The place to return to, once. */
export function takeReturnPlace(): ReturnPlace | null {
  try {
    const raw = window.sessionStorage.getItem(RETURN_KEY);
    window.sessionStorage.removeItem(RETURN_KEY);
    const place = raw ? (JSON.parse(raw) as Partial<ReturnPlace>) : null;
    if (typeof place?.path !== 'string' || !isAppPath(place.path)) return null;
    return { path: place.path, unsavedChange: place.unsavedChange === true };
  } catch {
    return null;
  }
}

/**
 * Logout, or an expired session (then with a notice for the login screen, and the screen
 * the user was on is kept to return to).
 */
export function endSession(
  notice: string | null = null,
  { unsavedChange = false }: { unsavedChange?: boolean } = {},
): void {
  if (notice) {
    rememberReturnPlace({
      path: window.location.pathname + window.location.search,
      unsavedChange,
    });
  } else {
    forgetKeptWork();
  }
  const end: SessionEnd = { expired: notice !== null, user: appState.get().activeUser };
  storage.clear();
  setActiveUser('');
  setImageCount(0);
  setLoginNotice(notice);
  goToLogin();
  for (const listener of endListeners) listener(end);
}
