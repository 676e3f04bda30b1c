import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      // Every file renders the same app: its modules are loaded once per worker, not once per
      // file (a quarter of the project's time). setup.ts resets what the app keeps between
      // renders before each test.
      isolate: false,
      // Each lazy screen compiles on first use; a cold run needs a few seconds.
      testTimeout: 20_000,
    },
  }),
);
