import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_PATHS,
  customerDataRequest,
  customerExportResponse,
  customerResponse,
  customerSearchQuery,
  customerSearchResponse,
  EXPORT_FILE_NAME,
  MESSAGES,
  saveCustomerRequest,
} from '@kanak/contract';
import { NotFoundError } from '../../lib/errors.js';
import type { OpenCustomersCsv } from './customers.export.js';
import type { CustomersService } from './customers.service.js';

interface Options {
  customers: CustomersService;
  openCustomersCsv: OpenCustomersCsv;
}

export const customersRoutes: FastifyPluginAsyncZod<Options> = async (
  app,
  { customers, openCustomersCsv },
) => {
  app.get(
    API_PATHS.searchCustomers,
    { schema: { querystring: customerSearchQuery, response: { 200: customerSearchResponse } } },
    async (request) => ({
      success: true,
      data: await customers.search(request.query.search),
    }),
  );

  app.post(
    API_PATHS.customerData,
    { schema: { body: customerDataRequest, response: { 200: customerResponse } } },
    async (request) => ({
      success: true,
      data: await customers.getByMobile(request.body.mobileno),
    }),
  );

  app.post(
    API_PATHS.saveCustomer,
    {
      schema: { body: saveCustomerRequest, response: { 200: customerResponse } },
      config: { idempotent: true },
    },
    async (request) => ({
      success: true,
      message: MESSAGES.customerSaved,
      data: await customers.save(request.staff, request.body.formData),
    }),
  );

  app.get(
    API_PATHS.exportCustomers,
    {
      schema: {
        querystring: z.object({ format: z.enum(['json', 'csv']).default('json') }),
        // The JSON form; the CSV is a stream the serializer never sees.
        response: { 200: customerExportResponse },
      },
    },
    async (request, reply) => {
      if (request.query.format === 'json')
        return { success: true, data: await customers.exportAll() };
      if (!(await customers.hasAny())) throw new NotFoundError(MESSAGES.noExportData);
      // A stream, which the JSON response schema neither types nor sees.
      return (reply as FastifyReply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${EXPORT_FILE_NAME}"`)
        .send(await openCustomersCsv());
    },
  );
};
