import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  MESSAGES,
  goldRateSaveRequest,
  goldRateSaveResponse,
  goldRateTodayResponse,
  goldRatesQuery,
  goldRatesResponse,
} from '@kanak/contract';
import type { GoldRatesService } from './gold-rates.service.js';

export const goldRatesRoutes: FastifyPluginAsyncZod<{ goldRates: GoldRatesService }> = async (
  app,
  { goldRates },
) => {
  app.get(
    API_PATHS.goldRates,
    {
      schema: { querystring: goldRatesQuery, response: { 200: goldRatesResponse } },
      config: { access: 'goldRates' },
    },
    async (request) => ({ success: true, data: await goldRates.history(request.query) }),
  );

  app.get(
    API_PATHS.goldRateToday,
    { schema: { response: { 200: goldRateTodayResponse } } },
    async () => ({ success: true, data: await goldRates.today() }),
  );

  app.post(
    API_PATHS.saveGoldRate,
    {
      schema: { body: goldRateSaveRequest, response: { 200: goldRateSaveResponse } },
      config: { idempotent: true, access: 'saveGoldRate' },
    },
    async (request) => {
      const saved = await goldRates.save(request.staff, request.body);
      const message = saved.corrected
        ? MESSAGES.goldRateCorrected(saved.date)
        : MESSAGES.goldRateSaved(saved.date);
      return { success: true, message, data: saved };
    },
  );
};
