import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  customerDataExportResponse,
  DATA_RIGHTS_MESSAGES,
  dataExportQuery,
  eraseRequest,
  eraseResponse,
} from '@kanak/contract';
import type { DataRightsService } from './data-rights.service.js';

interface Options {
  dataRights: DataRightsService;
}

export const dataRightsRoutes: FastifyPluginAsyncZod<Options> = async (app, { dataRights }) => {
  app.get(
    API_PATHS.customerDataExport,
    { schema: { querystring: dataExportQuery, response: { 200: customerDataExportResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true, data: await dataRights.dataExport(request.query.custid) };
    },
  );

  app.post(
    API_PATHS.eraseCustomer,
    {
      schema: { body: eraseRequest, response: { 200: eraseResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      const result = await dataRights.erase(request.staff, request.body.custid);
      return {
        success: true,
        message: result.alreadyErased
          ? DATA_RIGHTS_MESSAGES.customerAlreadyErased
          : DATA_RIGHTS_MESSAGES.customerErased,
        data: result,
      };
    },
  );
};
