import { createStore, useStore } from './store';

/**
 * The client state: the transient alerts, the count of images held for the
 * current upload list, and the signed-in user's name (starts empty, set after sign-in).
 */
export type AlertType = 'success' | 'warning' | 'error' | 'info';

export interface Alert {
  id: number;
  status: boolean;
  type: AlertType;
  message: string;
}

interface AppState {
  alerts: readonly Alert[];
  imageCount: number;
  activeUser: string;
  /** A notice for the login screen, e.g. "Session expired. Please sign in again." */
  loginNotice: string | null;
  /** Signed in with a temporary password: only "Change your password" shows until it changes. */
  passwordChangeDue: boolean;
}

const initialState: AppState = {
  alerts: [],
  imageCount: 0,
  activeUser: '',
  loginNotice: null,
  passwordChangeDue: false,
};

export const appState = createStore<AppState>(initialState);

let nextAlertId = 1;

/** Shows a transient alert; several may show at once (e.g. both profile warnings). */
export function showAlert(type: AlertType, message: string): void {
  const alert: Alert = { id: nextAlertId++, status: true, type, message };
  appState.set((state) => ({ alerts: [...state.alerts, alert] }));
}

export function dismissAlert(id: number): void {
  appState.set((state) => ({ alerts: state.alerts.filter((alert) => alert.id !== id) }));
}

export function setActiveUser(activeUser: string): void {
  appState.set({ activeUser });
}

export function setImageCount(imageCount: number): void {
  appState.set({ imageCount });
}

export function setLoginNotice(loginNotice: string | null): void {
  appState.set({ loginNotice });
}

export function setPasswordChangeDue(passwordChangeDue: boolean): void {
  appState.set({ passwordChangeDue });
}

/** Back to the first state (tests, and nothing else). */
export function resetAppState(): void {
  appState.set(initialState);
}

export const useAlerts = () => useStore(appState, (state) => state.alerts);
export const useActiveUser = () => useStore(appState, (state) => state.activeUser);
export const useImageCount = () => useStore(appState, (state) => state.imageCount);
export const useLoginNotice = () => useStore(appState, (state) => state.loginNotice);
export const usePasswordChangeDue = () => useStore(appState, (state) => state.passwordChangeDue);
