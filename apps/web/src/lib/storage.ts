import { STORAGE_KEYS } from '@kanak/contract';

/**
 * The signed-in session in browser storage. "Stay logged in" ticked keeps it in localStorage
 * (it survives closing the browser); unticked keeps it in sessionStorage (this tab only).
 */
export interface StoredSession {
  accessToken: string;
  user: string;
  stayLoggedIn: boolean;
}

const ALL_KEYS = Object.values(STORAGE_KEYS);

function areas(): Storage[] {
  return [window.localStorage, window.sessionStorage];
}

/** The storage area that holds the current token, if any. */
function areaWithToken(): Storage | undefined {
  return areas().find((area) => area.getItem(STORAGE_KEYS.accessToken) !== null);
}

export const storage = {
  getToken(): string | null {
    return areaWithToken()?.getItem(STORAGE_KEYS.accessToken) ?? null;
  },

  getUser(): string | null {
    return areaWithToken()?.getItem(STORAGE_KEYS.user) ?? null;
  },

  getStayLoggedIn(): boolean {
    const raw = areaWithToken()?.getItem(STORAGE_KEYS.stayLoggedIn);
    if (!raw) return false;
    try {
      return JSON.parse(raw) === true;
    } catch {
      return false;
    }
  },

  /** After a successful sign-in: replaces whatever was stored before. */
  saveSession({ accessToken, user, stayLoggedIn }: StoredSession): void {
    storage.clear();
    const area = stayLoggedIn ? window.localStorage : window.sessionStorage;
    area.setItem(STORAGE_KEYS.accessToken, accessToken);
    area.setItem(STORAGE_KEYS.user, user);
    area.setItem(STORAGE_KEYS.stayLoggedIn, JSON.stringify(stayLoggedIn));
  },

  /** A fresh token (after a password change) goes where the old one was. */
  replaceToken(accessToken: string): void {
    const area = areaWithToken() ?? window.sessionStorage;
    area.setItem(STORAGE_KEYS.accessToken, accessToken);
  },

  /** Sign-out and expired sessions: every Kanak key, from both areas. */
  clear(): void {
    for (const area of areas()) {
      for (const key of ALL_KEYS) area.removeItem(key);
    }
  },
};
