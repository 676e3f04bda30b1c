import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  apiKeyAddRequest,
  apiKeyAddResponse,
  apiKeyListResponse,
  apiKeyRevokeRequest,
  messageResponse,
  POS_MESSAGES,
} from '@kanak/contract';
import type { ApiKeysService } from './api-keys.service.js';

export const apiKeysRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeysService }> = async (
  app,
  { apiKeys },
) => {
  app.get(API_PATHS.apiKeys, { schema: { response: { 200: apiKeyListResponse } } }, async () => ({
    success: true,
    data: await apiKeys.list(),
  }));

  app.post(
    API_PATHS.apiKeys,
    {
      schema: { body: apiKeyAddRequest, response: { 200: apiKeyAddResponse } },
      // Only the key's hash is stored, in the replay store too: a repeat is told it was made.
      config: { idempotent: true, replay: { once: POS_MESSAGES.apiKeyShownOnce } },
    },
    async (request) => ({
      success: true,
      message: POS_MESSAGES.apiKeyMade,
      data: await apiKeys.add(request.staff.id, request.body),
    }),
  );

  app.post(
    API_PATHS.apiKeyRevoke,
    {
      schema: { body: apiKeyRevokeRequest, response: { 200: messageResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      await apiKeys.revoke(request.staff.id, request.body.id);
      return { success: true, message: POS_MESSAGES.apiKeyRevoked };
    },
  );
};
