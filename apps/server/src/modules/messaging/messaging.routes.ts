import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  MESSAGES,
  messageResponse,
  panelConfigResponse,
  panelSetupRequest,
} from '@kanak/contract';
import type { MessagingService } from './messaging.service.js';

export const messagingRoutes: FastifyPluginAsyncZod<{ messaging: MessagingService }> = async (
  app,
  { messaging },
) => {
  app.get(
    API_PATHS.panelConfig,
    { schema: { response: { 200: panelConfigResponse } } },
    async (_request, reply) => {
      // The token is a secret: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return { success: true, data: await messaging.get() };
    },
  );

  app.post(
    API_PATHS.panelSetup,
    {
      schema: { body: panelSetupRequest, response: { 200: messageResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      await messaging.save(request.staff, request.body.formData);
      return { success: true, message: MESSAGES.panelSaved };
    },
  );
};
