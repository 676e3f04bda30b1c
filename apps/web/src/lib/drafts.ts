import { appState } from './app-state';
import { DRAFT_PREFIX as PREFIX, isSignedIn, onSessionEnd } from './session';

/**
 * What a user had typed on a screen when their session expired or they went to another screen,
 * kept in this tab for their next sign-in or their return. Only for the same user: another
 * staff member signing in here gets a clean form; a logout forgets it.
 */

interface Draft<T> {
  user: string;
  values: T;
}

export function readDraft<T>(name: string, user: string): T | null {
  try {
    const raw = window.sessionStorage.getItem(PREFIX + name);
    const draft = raw ? (JSON.parse(raw) as Draft<T>) : null;
    return draft && draft.user === user ? draft.values : null;
  } catch {
    return null;
  }
}

export function clearDraft(name: string): void {
  window.sessionStorage.removeItem(PREFIX + name);
}

function saveDraft<T>(name: string, user: string, values: T): void {
  try {
    const draft: Draft<T> = { user, values };
    window.sessionStorage.setItem(PREFIX + name, JSON.stringify(draft));
  } catch {
    // Storage blocked: the form starts empty after sign-in, as before.
  }
}

/** While mounted: an expired session keeps `values()` as the draft `name`. */
export function keepDraftOnExpiry<T>(name: string, values: () => T): () => void {
  return onSessionEnd(({ expired, user }) => {
    if (expired && user) saveDraft(name, user, values());
  });
}

/**
 * While mounted: an expired session keeps `values()` as the draft `name`, and so does leaving
 * the screen while signed in when `started(values)` says something was typed (a call the
 * server never got is then typed again only by a press). A logout keeps nothing.
 */
export function keepDraft<T>(
  name: string,
  values: () => T,
  started: (values: T) => boolean,
): () => void {
  const stopKeeping = keepDraftOnExpiry(name, values);
  return () => {
    stopKeeping();
    const user = appState.get().activeUser;
    const kept = values();
    if (user && isSignedIn() && started(kept)) saveDraft(name, user, kept);
  };
}

/** A press whose outcome is unknown: the values sent and the Idempotency-Key they went with. */
export interface UnsurePress {
  body: string;
  key: string;
}

/**
 * The unsure press of the action `name`, kept in this tab beside its draft: a screen left and
 * opened again sends the same values with the same key, so the server does them at most once.
 * Only for the same user; a logout forgets it with the drafts.
 */
export function readUnsurePress(name: string): UnsurePress | null {
  return readDraft<UnsurePress>(`${name}.unsure`, appState.get().activeUser);
}

export function keepUnsurePress(name: string, press: UnsurePress | null): void {
  const user = appState.get().activeUser;
  if (press && user) saveDraft(`${name}.unsure`, user, press);
  else clearDraft(`${name}.unsure`);
}
