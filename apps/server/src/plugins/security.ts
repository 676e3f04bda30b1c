import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_PREFIX, MESSAGES } from '@kanak/contract';
import type { Db } from '../db/client.js';
import { TooManyRequestsError } from '../lib/errors.js';
import { postgresRateLimitStore, sweepRateLimits } from './rate-limit-store.js';
import { securityLogPlugin } from './security-log.js';

/** Browsers that reached us over TLS keep to it for a year (ASVS 14.4.5). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers with a CSP the built web app satisfies, API responses kept out of caches,
 * per-route rate limits counted in the database (every instance shares them) and the log of
 * security events. See docs/security.md.
 */
interface Options {
  db: Db;
  /** Other counts kept per window (the sign-in lockouts), swept on the same round. */
  sweepAlso?: () => Promise<void>;
}

export const securityPlugin = fp<Options>(async (app, { db, sweepAlso }) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Sent by apiHeaders below, and only over HTTPS: a shop's LAN may serve plain HTTP.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    apiHeaders(request, reply);
    return payload;
  });
  await app.register(rateLimit, {
    global: false,
    store: postgresRateLimitStore(db),
    errorResponseBuilder: () => new TooManyRequestsError(MESSAGES.tooManyRequests),
  });
  const sweep = setInterval(
    () =>
      Promise.all([sweepRateLimits(db), sweepAlso?.()]).catch((error: unknown) =>
        app.log.warn({ err: error }, 'rate limit sweep failed'),
      ),
    60 * 60 * 1000,
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  await app.register(securityLogPlugin);
});

/**
 * `policy` with more sources allowed for some directives: a directive it lacks is added with
 * 'self' and the sources (a missing frame-src would fall back to default-src 'self'). For the
 * one page that needs a third party's script or frames; every other page keeps the strict policy.
 */
export function widenedPolicy(policy: string, extra: Record<string, readonly string[]>): string {
  const directives = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean);
  for (const [name, sources] of Object.entries(extra)) {
    if (sources.length === 0) continue;
    const at = directives.findIndex((directive) => directive.split(/\s+/)[0] === name);
    if (at >= 0) directives[at] = `${directives[at]} ${sources.join(' ')}`;
    else directives.push(`${name} 'self' ${sources.join(' ')}`);
  }
  return directives.join(';');
}

/**
 * Decided by the route the request reached, never by the text of its URL: every answer is
 * kept out of caches unless its route says otherwise (the web app's files, the public images
 * and content), whichever spelling of the path reached it.
 */
function apiHeaders(request: FastifyRequest, reply: FastifyReply) {
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  // Customer data, tokens: no browser or proxy may keep a copy (ASVS 8.2.1).
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  // A JSON answer opened directly in a tab is downloaded, never rendered (ASVS 14.4.2).
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('application/json') && !reply.hasHeader('content-disposition')) {
    reply.header('content-disposition', 'attachment; filename="api.json"');
  }
  // The mobile app and other sites may load the public images and content; nothing else.
  if (request.routeOptions.config?.public && request.routeOptions.url?.startsWith(API_PREFIX)) {
    reply.header('cross-origin-resource-policy', 'cross-origin');
  }
}
