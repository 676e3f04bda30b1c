import { lazy, Suspense } from 'react';
import { appState } from '../lib/app-state';
import { useStore } from '../lib/store';

// Loaded with the first alert, so the login page does not carry Snackbar and Alert.
const AlertStack = lazy(async () => ({ default: (await import('./AlertStack')).AlertStack }));

/** Where transient alerts appear (bottom-left); see AlertStack. */
export function AlertHost() {
  const hasAlerts = useStore(appState, (state) => state.alerts.length > 0);
  return <Suspense fallback={null}>{hasAlerts && <AlertStack />}</Suspense>;
}
