import { useEffect, useSyncExternalStore } from 'react';
import { branding as fetchBranding, type ShopBranding } from './api';

/** The shop's name, tagline and phones, asked for once per visit; null until known or when unavailable. */
let current: ShopBranding | null = null;
let asked = false;
const listeners = new Set<() => void>();

function load() {
  if (asked) return;
  asked = true;
  fetchBranding()
    .then((answer) => {
      current = answer;
      listeners.forEach((listener) => listener());
    })
    .catch(() => undefined);
}

export function useShopBranding(): ShopBranding | null {
  useEffect(load, []);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    () => current,
  );
}

/** Tests only: ask again on next use. */
export function forgetShopBranding() {
  current = null;
  asked = false;
}
