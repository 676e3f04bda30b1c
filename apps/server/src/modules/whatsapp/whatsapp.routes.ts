import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  MEMBER_API_PATHS,
  WHATSAPP_MESSAGES,
  whatsappTemplatesResponse,
  whatsappTemplatesSyncRequest,
  whatsappWebhookChallenge,
  whatsappWebhookQuery,
  whatsappWebhookResponse,
} from '@kanak/contract';
import type { WhatsAppService } from './whatsapp.service.js';

export const whatsappRoutes: FastifyPluginAsyncZod<{ whatsapp: WhatsAppService }> = async (
  app,
  { whatsapp },
) => {
  app.get(
    API_PATHS.whatsappTemplates,
    { schema: { response: { 200: whatsappTemplatesResponse } } },
    async () => ({ success: true, data: await whatsapp.templates() }),
  );

  app.post(
    API_PATHS.whatsappTemplatesSync,
    {
      schema: { body: whatsappTemplatesSyncRequest, response: { 200: whatsappTemplatesResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      const data = await whatsapp.sync(request.staff);
      return { success: true, message: WHATSAPP_MESSAGES.templatesSynced(data.length), data };
    },
  );

  // Meta signs each event over its body exactly as sent: this scope alone keeps bodies raw,
  // and reads nothing of one before its signature checks out.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );

    scope.get(
      MEMBER_API_PATHS.whatsappWebhook,
      {
        schema: { querystring: whatsappWebhookQuery, response: { 200: whatsappWebhookChallenge } },
        config: { public: true },
      },
      async (request, reply) => {
        const challenge = await whatsapp.handshake(request.query);
        return reply.type('text/plain; charset=utf-8').send(challenge);
      },
    );

    scope.post(
      MEMBER_API_PATHS.whatsappWebhook,
      { schema: { response: { 200: whatsappWebhookResponse } }, config: { public: true } },
      async (request) => {
        const signature = request.headers['x-hub-signature-256'];
        await whatsapp.event(
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          typeof signature === 'string' ? signature : undefined,
        );
        return { success: true };
      },
    );
  });
};
