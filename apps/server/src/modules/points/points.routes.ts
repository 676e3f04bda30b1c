import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  counterRedemptionRequest,
  counterRedemptionResponse,
  redeemTermsRequest,
  redeemTermsResponse,
  financialYearResponse,
  MESSAGES,
  messageResponse,
  pointsStatementResponse,
  pointsUpdateResponse,
  pointsStatementRequest,
  updatePointsRequest,
  updateStatementRequest,
} from '@kanak/contract';
import { fastAnswers } from '../../lib/fast-answers.js';
import type { PointsService } from './points.service.js';

export const pointsRoutes: FastifyPluginAsyncZod<{ points: PointsService }> = async (
  app,
  { points },
) => {
  app.post(
    API_PATHS.updatePoints,
    {
      schema: { body: updatePointsRequest, response: { 200: pointsUpdateResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      const entry = await points.updatePoints(request.staff, request.body.formData);
      // The new balance, so the counter can tell the customer at once.
      return { success: true, message: MESSAGES.pointsUpdated, data: { balance: entry.balance } };
    },
  );

  app.post(
    API_PATHS.redeemTerms,
    { schema: { body: redeemTermsRequest, response: { 200: redeemTermsResponse } } },
    async (request) => ({ success: true, data: await points.redeemTerms(request.body.mobile) }),
  );

  app.post(
    API_PATHS.redeemPoints,
    {
      schema: { body: counterRedemptionRequest, response: { 200: counterRedemptionResponse } },
      config: { idempotent: true },
    },
    async (request) => ({
      success: true,
      message: MESSAGES.pointsRedeemed,
      data: await points.redeem(request.staff, request.body),
    }),
  );

  app.post(
    API_PATHS.updateStatement,
    {
      schema: { body: updateStatementRequest, response: { 200: messageResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      await points.updateStatement(request.staff, request.body.formData);
      return { success: true, message: MESSAGES.statementUpdated };
    },
  );

  app.post(
    API_PATHS.pointsStatement,
    {
      schema: { body: pointsStatementRequest, response: { 200: pointsStatementResponse } },
      serializerCompiler: fastAnswers,
    },
    async (request) => ({
      success: true,
      data: await points.statement(request.staff, request.body),
    }),
  );

  app.get(
    API_PATHS.financialYear,
    { schema: { response: { 200: financialYearResponse } } },
    async () => ({
      success: true,
      data: { sfdate: points.financialYearStart() },
    }),
  );
};
