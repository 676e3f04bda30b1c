import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  brandingResponse,
  type Branding,
  healthResponse,
  MESSAGES,
  messageResponse,
  readyResponse,
} from '@kanak/contract';
import { oneAtATime, within } from '../../lib/within.js';

/** How long the readiness check waits for the database: a load balancer's probe is short. */
const READY_WITHIN_MS = 2_000;

/**
 * Public: health for load balancers (is the process alive and its database reachable),
 * readiness (should it get traffic), branding for the login screen.
 */
export const systemRoutes: FastifyPluginAsyncZod<{
  /**
   * The shop's name, address and scheme terms, as the login screen and receipts show them:
   * read at each request, as the owner may change them at any time.
   */
  shop: () => Promise<Branding>;
  /** Fails when the database does not answer. */
  checkDatabase: () => Promise<void>;
  /** How many of this version's migrations the database lacks; fails when it does not answer. */
  migrationsPending: () => Promise<number>;
  /** Whether a stop has begun. */
  stopping: () => boolean;
}> = async (app, { shop, checkDatabase, migrationsPending, stopping }) => {
  const health = { response: { 200: healthResponse, 503: messageResponse } };
  app.get(
    API_PATHS.health,
    { schema: health, config: { public: true } },
    async (_request, reply) => {
      try {
        await checkDatabase();
        return { success: true };
      } catch {
        return reply.code(503).send({ success: false, message: MESSAGES.databaseUnavailable });
      }
    },
  );

  // Probes that come faster than a slow database answers share the one check under way.
  const pending = oneAtATime(migrationsPending);
  const ready = { response: { 200: readyResponse, 503: messageResponse } };
  app.get(API_PATHS.ready, { schema: ready, config: { public: true } }, async (_request, reply) => {
    let refusal: string | undefined;
    try {
      if ((await within(pending(), READY_WITHIN_MS)) > 0) refusal = MESSAGES.databaseNotMigrated;
    } catch {
      refusal = MESSAGES.databaseUnavailable;
    }
    // A stop that began while the database was asked: no more traffic for this instance.
    if (stopping()) refusal = MESSAGES.serverStopping;
    if (refusal) return reply.code(503).send({ success: false, message: refusal });
    return { success: true as const };
  });

  const branding = { response: { 200: brandingResponse } };
  app.get(API_PATHS.branding, { schema: branding, config: { public: true } }, async () => ({
    success: true,
    data: await shop(),
  }));
};
