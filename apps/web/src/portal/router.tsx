import { useSyncExternalStore, type MouseEvent } from 'react';

/**
 * The portal's few addresses under /my, kept in the browser's history: a link is a real link
 * (open in a new tab, copy), and Back returns to the screen before. Small enough not to need a
 * router library on a slow phone's first page.
 */
export const PORTAL_BASE = '/my';

export const portalPaths = {
  home: PORTAL_BASE,
  points: (page = 1) => `${PORTAL_BASE}/points${page > 1 ? `?page=${page}` : ''}`,
  passbook: (schemeid: number) => `${PORTAL_BASE}/schemes/${schemeid}`,
  receipt: (schemeid: number, receiptNo: string) =>
    `${PORTAL_BASE}/schemes/${schemeid}/receipts/${encodeURIComponent(receiptNo)}`,
  pay: (schemeid: number) => `${PORTAL_BASE}/schemes/${schemeid}/pay`,
  consents: `${PORTAL_BASE}/consents`,
} as const;

export type Route =
  | { screen: 'home' }
  | { screen: 'points'; page: number }
  | { screen: 'passbook'; schemeid: number }
  | { screen: 'receipt'; schemeid: number; receiptNo: string }
  | { screen: 'pay'; schemeid: number }
  | { screen: 'consents' };

/** The screen an address shows; an unknown one shows the home screen. */
export function routeOf(pathname: string, search: string): Route {
  const rest = pathname.replace(/\/+$/, '').slice(PORTAL_BASE.length);
  let match: RegExpExecArray | null;
  if (rest === '/points') {
    const page = Number(new URLSearchParams(search).get('page') ?? '1');
    return { screen: 'points', page: Number.isInteger(page) && page >= 1 ? page : 1 };
  }
  if (rest === '/consents') return { screen: 'consents' };
  if ((match = /^\/schemes\/(\d{1,10})$/.exec(rest)))
    return { screen: 'passbook', schemeid: Number(match[1]) };
  if ((match = /^\/schemes\/(\d{1,10})\/pay$/.exec(rest)))
    return { screen: 'pay', schemeid: Number(match[1]) };
  if ((match = /^\/schemes\/(\d{1,10})\/receipts\/([^/]+)$/.exec(rest)))
    return {
      screen: 'receipt',
      schemeid: Number(match[1]),
      receiptNo: decodeURIComponent(match[2]!),
    };
  return { screen: 'home' };
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

const currentAddress = () => window.location.pathname + window.location.search;

export function navigate(to: string, { replace = false } = {}) {
  if (to === currentAddress()) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.scrollTo?.(0, 0);
  notify();
}

/** The screen the address shows now; follows navigate() and Back. */
export function useRoute(): Route {
  const address = useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, currentAddress);
  const at = address.indexOf('?');
  return at < 0 ? routeOf(address, '') : routeOf(address.slice(0, at), address.slice(at));
}

/** A plain click on a link moves within the portal; a click with a modifier is the browser's. */
export function followLink(event: MouseEvent<HTMLAnchorElement>, to: string) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(to);
}
