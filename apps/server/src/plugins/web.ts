import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { API_PREFIX, MESSAGES } from '@kanak/contract';
import { widenedPolicy } from './security.js';

/** The built web app in apps/web/dist, whichever of src/ or dist/ this file runs from. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** Where the customer's portal lives: its own shell and its own entry, apart from the staff's. */
export const PORTAL_BASE = '/my';

interface Options {
  root: string;
  /**
   * Sources the portal's pages may use beyond the strict policy (the payment gateway's
   * checkout script and frames), by directive.
   */
  portalSources?: Record<string, readonly string[]>;
}

/** The origin of an address, as a CSP source; none for an address that is not one. */
export function originOf(address: string): string[] {
  try {
    return [new URL(address).origin];
  } catch {
    return [];
  }
}

/**
 * Serves the built web app at `/` with index.html for client-side routes, the customer's portal
 * (my/index.html) for client routes under /my, and answers unknown API paths with the JSON
 * envelope.
 */
export const webPlugin = fp<Options>(async (app, { root, portalSources = {} }) => {
  const indexFile = path.join(root, 'index.html');
  const portalFile = path.join(root, 'my', 'index.html');
  // The shells client routes answer with; like the files, read as they are at start.
  const shell = existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  const portalShell = existsSync(portalFile) ? readFileSync(portalFile) : undefined;
  const hasWebApp = shell !== undefined;
  if (hasWebApp) {
    await app.register(async (files) => {
      // The app's own files are what a browser loads before anyone signs in.
      files.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      await files.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // The build keeps source maps for debugging; they are the app's source, not for the web
        // (ASVS 12.5.1).
        allowedPath: (pathname) => !pathname.endsWith('.map'),
        setHeaders(res, file) {
          // Vite fingerprints everything under assets/; index.html must always be fresh.
          const immutable = file.includes(`${path.sep}assets${path.sep}`);
          res.header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Client routes have no file extension; a missing /assets/x.js must be a 404, not the
    // app shell (the browser would try to run HTML as a script). Nothing that any reader could
    // take for an API path (`//api//x`, `/%2561pi/x`) gets the shell either: it is not found.
    const pathname = resolvedPath(request.url);
    const wantsPage =
      request.method === 'GET' &&
      pathname !== undefined &&
      !pathname.startsWith(API_PREFIX) &&
      !path.extname(pathname);
    // Files under the root have their own routes (wildcard: false); the rest are client routes.
    const inPortal =
      pathname !== undefined &&
      (pathname === PORTAL_BASE || pathname.startsWith(`${PORTAL_BASE}/`));
    if (portalShell && wantsPage && inPortal) {
      // Only the portal's pages may load the gateway's checkout and show its frames.
      const policy = reply.raw.getHeader('content-security-policy');
      if (typeof policy === 'string')
        reply.header('content-security-policy', widenedPolicy(policy, portalSources));
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(portalShell);
    }
    if (shell && wantsPage)
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(shell);
    return reply.code(404).send({ success: false, message: MESSAGES.notFound });
  });
});

/**
 * A request target's path as lenient readers may see it: escapes decoded until none are left,
 * runs of slashes folded, dot segments resolved, letters lower-cased. Undefined when it cannot
 * be decoded.
 */
function resolvedPath(target: string): string | undefined {
  let pathname = target.split('?')[0] ?? '';
  try {
    for (let round = 0; round < 5 && pathname.includes('%'); round++) {
      pathname = decodeURIComponent(pathname);
    }
  } catch {
    return undefined;
  }
  pathname = pathname.replace(/[/\\]+/g, '/');
  return new URL(pathname, 'http://host').pathname.toLowerCase();
}
