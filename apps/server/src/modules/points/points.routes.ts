import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  MESSAGES,
  pointsStatementRequest,
  updatePointsRequest,
  updateStatementRequest,
} from '@kanak/contract';
import type { PointsService } from './points.service.js';

export const pointsRoutes: FastifyPluginAsyncZod<{ points: PointsService }> = async (
  app,
  { points },
) => {
  app.post(
    API_PATHS.updatePoints,
    { schema: { body: updatePointsRequest }, config: { idempotent: true } },
    async (request) => {
      const entry = await points.updatePoints(request.staff, request.body.formData);
      // The new balance, so the counter can tell the customer at once.
      return { success: true, message: MESSAGES.pointsUpdated, data: { balance: entry.balance } };
    },
  );

  app.post(
    API_PATHS.updateStatement,
    { schema: { body: updateStatementRequest }, config: { idempotent: true } },
    async (request) => {
      await points.updateStatement(request.staff, request.body.formData);
      return { success: true, message: MESSAGES.statementUpdated };
    },
  );

  app.post(
    API_PATHS.pointsStatement,
    { schema: { body: pointsStatementRequest } },
    async (request) => ({
      success: true,
      data: await points.statement(request.body),
    }),
  );

  app.get(API_PATHS.financialYear, async () => ({
    success: true,
    data: { sfdate: points.financialYearStart() },
  }));
};
