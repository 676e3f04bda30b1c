import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  brandingResponse,
  healthResponse,
  MESSAGES,
  messageResponse,
} from '@kanak/contract';

/** Public: health for load balancers, branding for the login screen. */
export const systemRoutes: FastifyPluginAsyncZod<{
  /** Fails when the database does not answer. */
  checkDatabase: () => Promise<void>;
}> = async (app, { checkDatabase }) => {
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

  const branding = { response: { 200: brandingResponse } };
  app.get(API_PATHS.branding, { schema: branding, config: { public: true } }, async () => ({
    success: true,
    data: {
      ...app.config.branding,
      ...app.config.schemeTerms,
      ...(app.config.gstin ? { gstin: app.config.gstin } : {}),
    },
  }));
};
