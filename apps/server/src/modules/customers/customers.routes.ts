import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_PATHS,
  consentRequest,
  consentResponse,
  customerProfileResponse,
  DATA_RIGHTS_MESSAGES,
  customerDataRequest,
  customerExportResponse,
  customerSearchQuery,
  customerSearchResponse,
  EXPORT_FILE_NAME,
  exportTicketResponse,
  MESSAGES,
  saveCustomerRequest,
  type CustomerProfile,
} from '@kanak/contract';
import { NotFoundError } from '../../lib/errors.js';
import { reread } from '../../plugins/idempotency.js';
import type { FastifyReply } from 'fastify';
import type { Reader } from '../../db/reads.js';
import { fastAnswers } from '../../lib/fast-answers.js';
import type { CustomersExports } from './customers.export.js';
import type { ExportTickets } from './customers.export-tickets.js';
import type { CustomersService } from './customers.service.js';

type SavedProfile = z.infer<typeof customerProfileResponse>;
const savedProfile = (profile: CustomerProfile): SavedProfile => ({
  success: true,
  message: MESSAGES.customerSaved,
  data: profile,
});

interface Options {
  customers: CustomersService;
  exports: CustomersExports;
  exportTickets: ExportTickets;
}

export const customersRoutes: FastifyPluginAsyncZod<Options> = async (
  app,
  { customers, exports, exportTickets },
) => {
  const sendCsv = async (reply: FastifyReply, reader: Reader) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${EXPORT_FILE_NAME}"`)
      .header('cache-control', 'no-store')
      .send(await exports.csv(reader));
  const sendJson = async (reply: FastifyReply, reader: Reader) =>
    reply.type('application/json; charset=utf-8').send(await exports.json(reader));

  app.get(
    API_PATHS.searchCustomers,
    {
      schema: { querystring: customerSearchQuery, response: { 200: customerSearchResponse } },
      serializerCompiler: fastAnswers,
    },
    async (request) => ({
      success: true,
      data: await customers.search(request.query.search),
    }),
  );

  app.post(
    API_PATHS.customerData,
    { schema: { body: customerDataRequest, response: { 200: customerProfileResponse } } },
    async (request) => ({
      success: true,
      data: await customers.getByMobile(request.body.mobileno),
    }),
  );

  app.post(
    API_PATHS.saveCustomer,
    {
      schema: { body: saveCustomerRequest, response: { 200: customerProfileResponse } },
      config: {
        idempotent: true,
        // The profile is personal data: a repeat reads it afresh by its id.
        replay: reread(
          (answer: SavedProfile) => answer.data.custid,
          async (custid) => savedProfile(await customers.getById(custid)),
        ),
      },
    },
    async (request) => savedProfile(await customers.save(request.staff, request.body.formData)),
  );

  app.post(
    API_PATHS.customerConsent,
    {
      schema: { body: consentRequest, response: { 200: consentResponse } },
      config: {
        idempotent: true,
        // What this customer chose, and who recorded it: read afresh by the customer's id.
        replay: reread(
          (_answer: z.infer<typeof consentResponse>, body: z.infer<typeof consentRequest>) => body,
          async ({ custid, purpose, granted }) => ({
            success: true,
            message: DATA_RIGHTS_MESSAGES.consentRecorded(purpose, granted),
            data: await customers.consents(custid),
          }),
        ),
      },
    },
    async (request) => ({
      success: true,
      message: DATA_RIGHTS_MESSAGES.consentRecorded(request.body.purpose, request.body.granted),
      data: await customers.recordConsent(request.staff, request.body),
    }),
  );

  app.get(
    API_PATHS.exportCustomers,
    {
      schema: {
        querystring: z.object({ format: z.enum(['json', 'csv']).default('json') }),
        // The answer's shape; both forms are streams the serializer never sees.
        response: { 200: customerExportResponse },
      },
    },
    async (request, reply) => {
      if (request.query.format === 'json') return sendJson(reply, request.staff);
      if (!(await customers.hasAny())) throw new NotFoundError(MESSAGES.noExportData);
      return sendCsv(reply, request.staff);
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
      return sendCsv(reply, staff);
    },
  );
};
