import { useSyncExternalStore } from 'react';
import { MEMBER_STORAGE_KEYS } from '@kanak/contract';

/**
 * The customer's session: their member token in localStorage (a phone is one person's), and the
 * notice the sign-in screen shows after it ends (signed out, or expired). Kept apart from the
 * staff's keys: a customer and a staff member never share a session.
 */
interface SessionState {
  token: string | null;
  notice: string | null;
}

const listeners = new Set<() => void>();
let state: SessionState = { token: readToken(), notice: null };

function readToken(): string | null {
  try {
    return window.localStorage.getItem(MEMBER_STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

function set(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

export const session = {
  token: () => state.token,

  start(token: string) {
    window.localStorage.setItem(MEMBER_STORAGE_KEYS.token, token);
    set({ token, notice: null });
  },

  /** Forgets the token (sign-out, or any 401): the sign-in screen shows `notice`. */
  end(notice: string | null = null) {
    window.localStorage.removeItem(MEMBER_STORAGE_KEYS.token);
    set({ token: null, notice });
  },

  clearNotice() {
    if (state.notice !== null) set({ ...state, notice: null });
  },

  /** Tests only: read the stored token again, as a fresh page would. */
  reload() {
    set({ token: readToken(), notice: null });
  },
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, () => state);
}
