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
  exportTicketResponse,
  MESSAGES,
  saveCustomerRequest,
} from '@kanak/contract';
import { NotFoundError } from '../../lib/errors.js';
import type { FastifyReply } from 'fastify';
import type { OpenCustomersCsv } from './customers.export.js';
import type { ExportTickets } from './customers.export-tickets.js';
import type { CustomersService } from './customers.service.js';

interface Options {
  customers: CustomersService;
  openCustomersCsv: OpenCustomersCsv;
  exportTickets: ExportTickets;
}

const sendCsv = async (reply: FastifyReply, openCustomersCsv: OpenCustomersCsv) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${EXPORT_FILE_NAME}"`)
    .header('cache-control', 'no-store')
    .send(await openCustomersCsv());

export const customersRoutes: FastifyPluginAsyncZod<Options> = async (
  app,
  { customers, openCustomersCsv, exportTickets },
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
      return sendCsv(reply, openCustomersCsv);
    },
  );

  // Export All in the browser: a single-use link, so the browser's download manager streams
  // the file to disk instead of the web app holding it in memory. "No data" is told here,
  // where the screen can still show it.
  const ticket = { response: { 200: exportTicketResponse } };
  app.post(API_PATHS.exportTicket, { schema: ticket }, async (request) => {
    if (!(await customers.hasAny())) throw new NotFoundError(MESSAGES.noExportData);
    return {
      success: true,
      data: await exportTickets.issue({
        userId: request.staff.id,
        tokenVersion: request.user.ver,
        jti: request.user.jti,
      }),
    };
  });

  // Public: a browser download carries no bearer token. The ticket in the link stands for it.
  app.get(
    API_PATHS.exportDownload,
    {
      config: { public: true },
      schema: {
        querystring: z.object({
          ticket: z
            .string()
            .regex(/^[\w-]{0,100}$/, MESSAGES.exportLinkInvalid)
            .default(''),
        }),
      },
    },
    async (request, reply) => {
      const staff = await exportTickets.redeem(request.query.ticket);
      reply.log = request.log = request.log.child({ user: staff.username });
      if (!(await customers.hasAny())) throw new NotFoundError(MESSAGES.noExportData);
      return sendCsv(reply, openCustomersCsv);
    },
  );
};
