import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  MESSAGES,
  schemePlanSaveRequest,
  schemePlanSaveResponse,
  schemePlansResponse,
} from '@kanak/contract';
import type { SchemePlansService } from './scheme-plans.service.js';

export const schemePlansRoutes: FastifyPluginAsyncZod<{ schemePlans: SchemePlansService }> = async (
  app,
  { schemePlans },
) => {
  app.get(
    API_PATHS.schemePlans,
    {
      schema: { response: { 200: schemePlansResponse } },
      config: { access: 'schemePlans' },
    },
    async () => ({ success: true, data: await schemePlans.list() }),
  );

  app.post(
    API_PATHS.saveSchemePlan,
    {
      schema: { body: schemePlanSaveRequest, response: { 200: schemePlanSaveResponse } },
      config: { idempotent: true, access: 'saveSchemePlan' },
    },
    async (request) => {
      const plan = await schemePlans.save(request.staff, request.body);
      return { success: true, message: MESSAGES.schemePlanSaved(plan.code), data: plan };
    },
  );
};
