import { defineConfig } from 'vitest/config';

// Two projects: the server's inject tests on a real PostgreSQL, and the web app's screens in jsdom.
export default defineConfig({
  test: {
    projects: ['apps/server', 'apps/web'],
    reporters: ['default'],
    // Two cores: both projects share these workers.
    maxWorkers: 2,
  },
});
