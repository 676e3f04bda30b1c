import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Where `npm run dev` sends `/api`: the server's default port, or API_PROXY_TARGET. */
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000';

/**
 * In development, client routes under /my get the customers' portal's page (my/index.html), as
 * the server answers them; its production build is vite.portal.config.ts.
 */
const portalRoutes: Plugin = {
  name: 'kanak-portal-routes',
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      const pathname = request.url?.split('?')[0] ?? '';
      if (/^\/my(\/[^.]*)?$/.test(pathname)) request.url = '/my/index.html';
      next();
    });
  },
};

export default defineConfig({
  plugins: [react(), portalRoutes],
  // The contract package exports its TypeScript source under this condition.
  resolve: { conditions: ['@kanak/source'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No data: URIs, so the server's CSP can keep img-src to 'self'.
    assetsInlineLimit: 0,
    sourcemap: true,
    rolldownOptions: {
      // The contract's modules only declare things: unused ones (its zod schemas, on the
      // login page) are dropped, keeping zod out of the login page's JavaScript.
      treeshake: {
        moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
      // Every path of the staff app is needed by the screens, not by the login page: a chunk
      // of its own, which the login page does not load (its own paths are in sign-in-paths).
      output: {
        codeSplitting: {
          // Not the sign-in page's own paths, which the group's module imports.
          includeDependenciesRecursively: false,
          groups: [{ name: 'api-paths', test: /packages[\\/]contract[\\/]src[\\/]api-paths/ }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
