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
function useAlertContainer(): HTMLElement {
  const [container] = useState(() => {
    const element = document.createElement('div');
    element.className = 'kanak-alerts no-print';
    return element;
  });
  useEffect(() => {
    document.body.append(container);
    const keepAudible = new MutationObserver(() => {
      if (container.hasAttribute('aria-hidden')) container.removeAttribute('aria-hidden');
    });
    keepAudible.observe(container, { attributes: true, attributeFilter: ['aria-hidden'] });
    return () => {
      keepAudible.disconnect();
      container.remove();
    };
  }, [container]);
  return container;
}

/**
 * Where transient alerts appear (bottom-left); see AlertStack. Loaded with the app, never on
 * demand: the alert that reports a lost connection must not need the connection to show.
 */
export function AlertHost() {
  const hasAlerts = useStore(appState, (state) => state.alerts.length > 0);
  const container = useAlertContainer();
  if (!hasAlerts) return null;
  return createPortal(
    <ErrorBoundary fallback={null}>
      <AlertStack />
    </ErrorBoundary>,
    container,
  );
}
