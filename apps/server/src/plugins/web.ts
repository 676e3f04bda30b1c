import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { API_PREFIX, MESSAGES } from '@kanak/contract';

/** The built web app in apps/web/dist, whichever of src/ or dist/ this file runs from. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Serves the built web app at `/` with index.html for client-side routes, and answers unknown
 * API paths with the JSON envelope.
 */
export const webPlugin = fp<{ root: string }>(async (app, { root }) => {
  const hasWebApp = existsSync(path.join(root, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build keeps source maps for debugging; they are the app's source, not for the web
      // (ASVS 12.5.1).
      allowedPath: (pathname) => !pathname.endsWith('.map'),
      setHeaders(res, file) {
        // Vite fingerprints everything under assets/; index.html must always be fresh.
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Client routes have no file extension; a missing /assets/x.js must be a 404, not the
    // app shell (the browser would try to run HTML as a script).
    const pathname = request.url.split('?')[0] ?? '';
    const wantsPage =
      request.method === 'GET' &&
      !pathname.startsWith(`${API_PREFIX}/`) &&
      pathname !== API_PREFIX &&
      !path.extname(pathname);
    // Files under the root have their own routes (wildcard: false); the rest are client routes.
    if (hasWebApp && wantsPage)
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply.code(404).send({ success: false, message: MESSAGES.notFound });
  });
});
