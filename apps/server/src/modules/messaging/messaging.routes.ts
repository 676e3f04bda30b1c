import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  API_PATHS,
  API_PREFIX,
  MEMBER_API_PATHS,
  MESSAGES,
  panelConfigResponse,
  panelSetupRequest,
  panelSetupResponse,
} from '@kanak/contract';
import { reread } from '../../plugins/idempotency.js';
import type { MessagingService } from './messaging.service.js';

/**
 * Where Meta's webhook is to be pointed: this server's webhook on the address the owner
 * reached it at (behind a proxy that TRUST_PROXY trusts, the address the proxy was reached at).
 */
const webhookUrlOf = (request: FastifyRequest) =>
  `${request.protocol}://${request.host}${API_PREFIX}${MEMBER_API_PATHS.whatsappWebhook}`;

export const messagingRoutes: FastifyPluginAsyncZod<{ messaging: MessagingService }> = async (
  app,
  { messaging },
) => {
  app.get(
    API_PATHS.panelConfig,
    { schema: { response: { 200: panelConfigResponse } } },
    async (request, reply) => {
      // The token is a secret: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return { success: true, data: await messaging.view(webhookUrlOf(request)) };
    },
  );

  app.post(
    API_PATHS.panelSetup,
    {
      schema: { body: panelSetupRequest, response: { 200: panelSetupResponse } },
      config: {
        idempotent: true,
        // The webhook's verify token is kept sealed: a repeat reads it again.
        replay: reread(
          (answer: { message?: string; data?: { webhookUrl: string } }) => ({
            message: answer.message,
            webhookUrl: answer.data?.webhookUrl,
          }),
          async ({ message, webhookUrl }) => {
            const data = webhookUrl ? await messaging.webhookSetup(webhookUrl) : undefined;
            return { success: true, message, ...(data ? { data } : {}) };
          },
        ),
      },
    },
    async (request, reply) => {
      const data = await messaging.save(
        request.staff,
        request.body.formData,
        webhookUrlOf(request),
      );
      reply.header('cache-control', 'no-store');
      return { success: true, message: MESSAGES.panelSaved, ...(data ? { data } : {}) };
    },
  );
};
