import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  markOnlineRefundRequest,
  messageResponse,
  onlineRefundsResponse,
} from '@kanak/contract';
import type { MemberPayments } from './members.payments.js';

/**
 * The staff's side of online payments that bought no installment: the list to refund from the
 * gateway's dashboard, and noting each one refunded (owners and managers).
 */
export const refundsRoutes: FastifyPluginAsyncZod<{ payments: MemberPayments }> = async (
  app,
  { payments },
) => {
  app.get(
    API_PATHS.onlineRefunds,
    { schema: { response: { 200: onlineRefundsResponse } } },
    async (request) => ({ success: true, data: await payments.refundsDue(request.staff) }),
  );

  app.post(
    API_PATHS.markOnlineRefund,
    {
      schema: { body: markOnlineRefundRequest, response: { 200: messageResponse } },
      config: { idempotent: true },
    },
    async (request) => ({
      success: true,
      message: await payments.markRefunded(request.staff, request.body),
    }),
  );
};
