import '@testing-library/jest-dom/vitest';
import { createElement } from 'react';
import { __unsafe_useEmotionCache as useEmotionCache, type EmotionCache } from '@emotion/react';
import { cleanup, configure, render } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { api } from '../lib/api';
import { resetAppState } from '../lib/app-state';
import { forgetBranding } from '../lib/branding';
import { connection } from '../lib/connection';
import { queryClient } from '../lib/query-client';

// Lazy screens are compiled on first use, which can take a moment in a cold test run.
configure({ asyncUtilTimeout: 5000 });

/**
 * The files of a worker share one document (isolate: false), and the styles MUI's emotion cache
 * inserts would pile up in it file after file; every style look-up (each visibility check of
 * getByRole) reads them all. Each file starts with none: the cache forgets what it inserted
 * and writes again what its screens use.
 */
beforeAll(() => {
  let cache: EmotionCache | null = null;
  const Capture = () => {
    cache = useEmotionCache();
    return null;
  };
  render(createElement(Capture));
  cleanup();
  if (!cache) return;
  const emotion: EmotionCache = cache;
  emotion.sheet.flush();
  for (const name of Object.keys(emotion.inserted)) delete emotion.inserted[name];
});

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
  // A server one test could not reach is there again for the next (and nobody asks it).
  connection.reached();
});
