import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { api } from '../lib/api';
import { resetAppState } from '../lib/app-state';
import { forgetBranding } from '../lib/branding';
import { queryClient } from '../lib/query-client';

// Lazy screens are compiled on first use, which can take a moment in a cold test run.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  resetAppState();
  forgetBranding();
  // No real network in tests: each test answers through test/fake-server.ts.
  api.defaults.adapter = (config) =>
    Promise.reject(new Error(`No fake server for ${config.method} ${config.url}`));
});

const originalMatchMedia = window.matchMedia;

afterEach(() => {
  cleanup();
  // The app's one query cache: answers must not carry over from one test to the next.
  queryClient.clear();
  window.matchMedia = originalMatchMedia;
});
