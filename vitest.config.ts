import { defineConfig } from 'vitest/config';

// The server's inject tests on a real PostgreSQL, the web app's screens in jsdom, and checks of
// the repository itself (its lint boundaries, its comments).
export default defineConfig({
  test: {
    projects: [
      'apps/server',
      'apps/web',
      { test: { name: 'repository', include: ['scripts/checks/*.test.ts'], testTimeout: 60_000 } },
      // The shared rules, on their own: pure functions of dates and counts.
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
    ],
    reporters: ['default'],
    // Two cores: both projects share these workers.
    maxWorkers: 2,
  },
});
