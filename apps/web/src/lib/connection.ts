/**
 * Whether this browser can reach the server, for the banner every screen shows: `offline`
 * when the browser says it has no network, `unreachable` when a call got no answer (or the
 * server said it could not reach its database), `online` once any call is answered again.
 * While not online, the server is asked every few seconds; when it answers, what the screens
 * failed to read is read again (reads only: a change is never sent again without its user).
 * Kept free of React and of the HTTP client, so the sign-in page stays small.
 */

export type ConnectionState = 'online' | 'offline' | 'unreachable';

/** How often the server is asked while it cannot be reached. */
export const PROBE_EVERY_MS = 5_000;

let state: ConnectionState = browserOffline() ? 'offline' : 'online';
const listeners = new Set<() => void>();
const backListeners = new Set<() => void>();
let probe: (() => Promise<unknown>) | undefined;
let probing: ReturnType<typeof setInterval> | undefined;

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function enter(next: ConnectionState) {
  if (next === state) return;
  const wasDown = state !== 'online';
  state = next;
  if (next === 'online') {
    clearInterval(probing);
    probing = undefined;
    if (wasDown) for (const listener of backListeners) listener();
  } else if (!probing) {
    probing = setInterval(() => void checkNow(), PROBE_EVERY_MS);
  }
  for (const listener of listeners) listener();
}

/** Asks the server once; its answer or silence decides the state. */
async function checkNow(): Promise<void> {
  if (!probe) return;
  try {
    await probe();
    connection.reached();
  } catch {
    connection.lost();
  }
}

export const connection = {
  get state(): ConnectionState {
    return state;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Called when the connection comes back after being lost. */
  onBack(listener: () => void): () => void {
    backListeners.add(listener);
    return () => backListeners.delete(listener);
  },
  /** A call was answered: the server is there. */
  reached() {
    if (!browserOffline()) enter('online');
  },
  /** A call got no answer, or the server could not reach its database. */
  lost() {
    enter(browserOffline() ? 'offline' : 'unreachable');
  },
  /** How the server is asked whether it is back (the HTTP client sets it). */
  setProbe(ask: () => Promise<unknown>) {
    probe = ask;
  },
  checkNow,
};

// Outside a browser (the server's tests drive this client from Node) there is nothing to hear.
if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  window.addEventListener('offline', () => enter('offline'));
  // The network is back; whether the server is, only its answer says.
  window.addEventListener('online', () => void checkNow());
}
