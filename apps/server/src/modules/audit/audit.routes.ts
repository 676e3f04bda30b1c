import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS, auditQuery, auditResponse } from '@kanak/contract';
import type { FastifyReply } from 'fastify';
import { branchOf } from '../../lib/branch-scope.js';
import type { AuditService } from './audit.service.js';

const sendCsv = (reply: FastifyReply, csv: string, fileName: string) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);

export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (
  app,
  { audit },
) => {
  app.get(
    API_PATHS.audit,
    {
      schema: {
        querystring: auditQuery,
        // The JSON form; the CSV (format=csv) is text the serializer never sees.
        response: { 200: auditResponse },
      },
    },
    async (request, reply) => {
      const { page, format, ...asked } = request.query;
      // A manager sees their own branch's changes only; the owner every branch's.
      const filters = { ...asked, branchId: branchOf(request.staff) };
      if (format === 'csv')
        return sendCsv(reply, await audit.csv(request.staff, filters), audit.csvFileName(filters));
      return {
        success: true,
        ...(await audit.page(request.staff, filters, page)),
      };
    },
  );
};
