import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram } from 'prom-client';
import { MESSAGES } from '@kanak/contract';
import type { Metrics } from '../../lib/metrics.js';

/** Where Prometheus scrapes, beside the API rather than in it: it is no call of the app's. */
export const METRICS_PATH = '/metrics';

/** The route label of a request no route took (unknown paths, the web app's client routes). */
export const UNMATCHED = 'unmatched';

/** The methods a request's label may name; any other is counted as OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the Authorization header carries `token` as its bearer token, compared in constant
 * time: both sides are hashed first, so neither their contents nor their lengths show in how
 * long the comparison takes.
 */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics in Prometheus's text format, for whoever runs the server, and the request
 * durations it shows. Served only with METRICS_TOKEN set, to a scraper that sends it as its
 * bearer token (401 otherwise); without one the path is unknown (404), and nothing is measured.
 * Public to the auth plugin: staff tokens have nothing to do with it.
 */
export const metricsRoutes = fp<{ served?: { token: string; metrics: Metrics } }>(
  async (app, { served }) => {
    if (served) observeDurations(app, served.metrics);
    app.get(METRICS_PATH, { config: { public: true } }, async (request, reply) => {
      if (!served) return reply.code(404).send({ success: false, message: MESSAGES.notFound });
      if (!bearerMatches(request.headers.authorization, served.token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .send({ success: false, message: MESSAGES.metricsTokenRequired });
      }
      const text = await served.metrics.scrape();
      return reply.header('cache-control', 'no-store').type(served.metrics.contentType).send(text);
    });
  },
);

/**
 * Every response's time in the server, by method, route and status. The route is the pattern
 * the router matched (`/api/pos/customers/:mobile`), never the path asked for, and every path
 * no route took shares one label: whatever paths a client makes up, the series stay those of
 * the app's routes.
 */
function observeDurations(app: Parameters<typeof metricsRoutes>[0], metrics: Metrics) {
  const durations = new Histogram({
    name: 'kanak_http_request_duration_seconds',
    help: 'Time from a request arriving to its response sent, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [metrics.registry],
  });
  const routeOf = (request: FastifyRequest) =>
    request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED);
  app.addHook('onResponse', async (request, reply) => {
    durations.observe(
      {
        method: METHODS.has(request.method) ? request.method : 'OTHER',
        route: routeOf(request),
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}
