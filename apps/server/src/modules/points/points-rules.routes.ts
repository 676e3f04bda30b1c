import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS, pointsRulesForm, pointsRulesResponse } from '@kanak/contract';
import type { PointsRulesService } from './points.rules.js';

/** The owner's points rules: read them, or set new ones valid from now on. */
export const pointsRulesRoutes: FastifyPluginAsyncZod<{ rules: PointsRulesService }> = async (
  app,
  { rules },
) => {
  app.get(
    API_PATHS.pointsRules,
    { schema: { response: { 200: pointsRulesResponse } } },
    async () => ({ success: true, data: await rules.get() }),
  );

  app.post(
    API_PATHS.pointsRules,
    {
      schema: { body: pointsRulesForm, response: { 200: pointsRulesResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      const { message } = await rules.save(request.staff.id, request.body);
      return { success: true, message, data: await rules.get() };
    },
  );
};
