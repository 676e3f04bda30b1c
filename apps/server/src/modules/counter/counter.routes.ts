import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS, counterCustomerRequest, counterCustomerResponse } from '@kanak/contract';
import type { CounterService } from './counter.service.js';

/**
 * The counter home's customer: a read (POST, as the other look-ups by mobile number, so the
 * number stays out of addresses and logs), open to every role like the customer look-ups.
 */
export const counterRoutes: FastifyPluginAsyncZod<{ counter: CounterService }> = async (
  app,
  { counter },
) => {
  app.post(
    API_PATHS.counterCustomer,
    { schema: { body: counterCustomerRequest, response: { 200: counterCustomerResponse } } },
    async (request) => ({ success: true, data: await counter.customer(request.body.mobile) }),
  );
};
