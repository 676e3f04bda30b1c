import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  posCustomerParams,
  posCustomerResponse,
  posRedemptionCancelRequest,
  posRedemptionCancelResponse,
  posRedemptionRequest,
  posRedemptionResponse,
  posReturnRequest,
  posReturnResponse,
  posSaleRequest,
  posSaleResponse,
} from '@kanak/contract';
import type { PosService } from './pos.service.js';

/**
 * The counter's billing system (an API key, never a staff token). Idempotent by the POS's own
 * document numbers per branch, not by Idempotency-Key.
 */
export const posRoutes: FastifyPluginAsyncZod<{ pos: PosService }> = async (app, { pos }) => {
  app.post(
    API_PATHS.posSales,
    { schema: { body: posSaleRequest, response: { 200: posSaleResponse } } },
    async (request) => ({ success: true, data: await pos.sale(request.machine, request.body) }),
  );

  app.post(
    API_PATHS.posReturns,
    { schema: { body: posReturnRequest, response: { 200: posReturnResponse } } },
    async (request) => ({ success: true, data: await pos.return(request.machine, request.body) }),
  );

  app.post(
    API_PATHS.posRedemptions,
    { schema: { body: posRedemptionRequest, response: { 200: posRedemptionResponse } } },
    async (request) => ({ success: true, data: await pos.redeem(request.machine, request.body) }),
  );

  app.post(
    API_PATHS.posRedemptionCancel,
    {
      schema: { body: posRedemptionCancelRequest, response: { 200: posRedemptionCancelResponse } },
    },
    async (request) => ({
      success: true,
      data: await pos.cancelRedemption(request.machine, request.body.invoiceNo),
    }),
  );

  app.get(
    API_PATHS.posCustomer,
    { schema: { params: posCustomerParams, response: { 200: posCustomerResponse } } },
    async (request) => ({ success: true, data: await pos.customer(request.params.mobile) }),
  );
};
