import { lazy, type ComponentType } from 'react';

/** Pauses before each new attempt at loading a screen's code: a blip or a restart passes. */
const CHUNK_RETRY_DELAYS_MS = [500, 1500];

async function loadWithRetries<M>(load: () => Promise<M>): Promise<M> {
  for (const delay of CHUNK_RETRY_DELAYS_MS) {
    try {
      return await load();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return load();
}

/** Bumped by the error screen's "Try again": screens whose code failed then load anew. */
let retryRound = 0;

export function retryFailedScreens(): void {
  retryRound += 1;
}

/**
 * Lazily loads a named export, so each screen is its own chunk; a failed load is tried again
 * twice, then reaches the error boundary. React keeps a failed lazy component failed for good,
 * so after "Try again" a failed screen starts a fresh one (not before: React renders a
 * rejected lazy again to find its error, and a fresh one there would load forever).
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  let failed = false;
  let round = retryRound;
  const fresh = () =>
    lazy(async () => {
      try {
        return { default: pick(await loadWithRetries(load)) };
      } catch (error) {
        failed = true;
        throw error;
      }
    });
  let Current = fresh();
  return function LazyPage() {
    if (failed && round !== retryRound) {
      failed = false;
      round = retryRound;
      Current = fresh();
    }
    return <Current />;
  };
}
