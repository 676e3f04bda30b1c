import { DRAFT_PREFIX as PREFIX, onSessionEnd } from './session';

/**
 * What a user had typed on a screen when their session expired, kept in this tab for their
 * next sign-in. Only for the same user: another staff member signing in here gets a clean form.
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

/** While mounted: an expired session keeps `values()` as the draft `name`. */
export function keepDraftOnExpiry<T>(name: string, values: () => T): () => void {
  return onSessionEnd(({ expired, user }) => {
    if (!expired || !user) return;
    try {
      const draft: Draft<T> = { user, values: values() };
      window.sessionStorage.setItem(PREFIX + name, JSON.stringify(draft));
    } catch {
      // Storage blocked: the form starts empty after sign-in, as before.
    }
  });
}
