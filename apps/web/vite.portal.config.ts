import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The customers' portal at /my: a build of its own, after the staff app's, into the same dist
 * (my/index.html and its chunks under assets/). Apart, neither page's first load is split
 * around code the other shares, and the staff app's chunks stay as they were.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['@kanak/source'] },
  // The staff app's build copies public/ (the icon both pages show).
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsInlineLimit: 0,
    sourcemap: true,
    rolldownOptions: {
      input: fileURLToPath(new URL('./my/index.html', import.meta.url)),
      // The contract's modules only declare things: the unused ones (its zod schemas) are
      // dropped from the sign-in page's JavaScript.
      treeshake: {
        moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
