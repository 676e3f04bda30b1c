import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  TIER_MESSAGES,
  customerTierRequest,
  customerTierResponse,
  tiersForm,
  tiersResponse,
} from '@kanak/contract';
import type { TiersService } from './points.tiers.js';

/** The owner's tiers, and a tier set by hand for one customer until a date. */
export const tiersRoutes: FastifyPluginAsyncZod<{ tiers: TiersService }> = async (
  app,
  { tiers },
) => {
  app.get(API_PATHS.tiers, { schema: { response: { 200: tiersResponse } } }, async () => ({
    success: true,
    data: await tiers.get(),
  }));

  app.post(
    API_PATHS.tiers,
    {
      schema: { body: tiersForm, response: { 200: tiersResponse } },
      config: { idempotent: true },
    },
    async (request) => ({ success: true, ...(await tiers.save(request.staff.id, request.body)) }),
  );

  app.post(
    API_PATHS.customerTier,
    {
      schema: { body: customerTierRequest, response: { 200: customerTierResponse } },
      config: { idempotent: true },
    },
    async (request) => ({
      success: true,
      message: TIER_MESSAGES.manualSet,
      data: await tiers.setManual(request.staff.id, request.body),
    }),
  );
};
