import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  MESSAGES,
  branchSaveRequest,
  branchSaveResponse,
  branchesResponse,
} from '@kanak/contract';
import type { BranchesService } from './branches.service.js';

export const branchesRoutes: FastifyPluginAsyncZod<{ branches: BranchesService }> = async (
  app,
  { branches },
) => {
  app.get(API_PATHS.branches, { schema: { response: { 200: branchesResponse } } }, async () => ({
    success: true,
    data: await branches.list(),
  }));

  app.post(
    API_PATHS.saveBranch,
    {
      schema: { body: branchSaveRequest, response: { 200: branchSaveResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      const saved = await branches.save(request.staff, request.body);
      return { success: true, message: MESSAGES.branchSaved(saved.code), data: saved };
    },
  );
};
