import { useEffect } from 'react';
import { SIGN_IN_API_PATHS, UI_TEXTS, type Branding } from '@kanak/contract';
import { api } from './api';
import { createStore, useStore } from './store';

interface BrandingState {
  status: 'idle' | 'loading' | 'done';
  /** null until loaded, and when it could not be had (screens then do without). */
  branding: Branding | null;
}

const initial: BrandingState = { status: 'idle', branding: null };
const brandingStore = createStore<BrandingState>(initial);

/**
 * The shop's name, tagline, phones and "powered by" from the public GET /api/app/branding,
 * fetched once per visit.
 */
function loadBranding(): void {
  if (brandingStore.get().status !== 'idle') return;
  brandingStore.set({ status: 'loading' });
  api
    .get<{ success: boolean; data?: Branding }>(SIGN_IN_API_PATHS.branding)
    .then(({ data }) => brandingStore.set({ status: 'done', branding: data.data ?? null }))
    .catch(() => brandingStore.set({ status: 'done', branding: null }));
}

/**
 * Fetches the branding again now: after the owner saves the shop's settings, this tab shows
 * them at once (what it showed stays until the answer comes).
 */
export function reloadBranding(): void {
  brandingStore.set({ status: 'idle' });
  loadBranding();
}

/** Tests only: fetch again on next use. */
export function forgetBranding(): void {
  brandingStore.set(initial);
}

/** The branding (null while loading or unavailable) and whether it is still loading. */
export function useBranding(): { branding: Branding | null; loading: boolean } {
  useEffect(loadBranding, []);
  const branding = useStore(brandingStore, (state) => state.branding);
  const loading = useStore(brandingStore, (state) => state.status !== 'done');
  return { branding, loading };
}

/** The company name, or the product's name while it is unknown. */
export function CompanyName() {
  return useBranding().branding?.companyName ?? UI_TEXTS.productName;
}
