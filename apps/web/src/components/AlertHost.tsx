import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { appState } from '../lib/app-state';
import { useStore } from '../lib/store';
import { AlertStack } from './AlertStack';
import { ErrorBoundary } from './ErrorBoundary';

/**
 * A container of its own at the end of <body>. An open MUI dialog marks every other child of
 * <body> aria-hidden, which would silence alerts (e.g. "Error in saving" behind the PAN
 * dialog); this container takes that mark off again, so screen readers still hear them.
 */
function useAlertContainer(): HTMLElement | null {
  const [container, setContainer] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const element = document.createElement('div');
    element.className = 'kanak-alerts no-print';
    document.body.append(element);
    const keepAudible = new MutationObserver(() => {
      if (element.hasAttribute('aria-hidden')) element.removeAttribute('aria-hidden');
    });
    keepAudible.observe(element, { attributes: true, attributeFilter: ['aria-hidden'] });
    setContainer(element);
    return () => {
      keepAudible.disconnect();
      element.remove();
    };
  }, []);
  return container;
}

/**
 * Where transient alerts appear (bottom-left); see AlertStack. Loaded with the app, never on
 * demand: the alert that reports a lost connection must not need the connection to show.
 */
export function AlertHost() {
  const hasAlerts = useStore(appState, (state) => state.alerts.length > 0);
  const container = useAlertContainer();
  if (!container || !hasAlerts) return null;
  return createPortal(
    <ErrorBoundary fallback={null}>
      <AlertStack />
    </ErrorBoundary>,
    container,
  );
}
