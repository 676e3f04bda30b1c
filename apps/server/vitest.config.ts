import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@kanak/source'] },
  ssr: { resolve: { conditions: ['@kanak/source'] } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // One database per test file (the worker count is set once, in the root config).
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
