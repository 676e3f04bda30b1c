import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PATHS,
  collectionsReportResponse,
  dashboardQuery,
  dashboardResponse,
  maturingReportResponse,
  myDayResponse,
  overdueReportResponse,
  pointsLiabilityReportResponse,
  reportRequestFor,
  type ReportFilter,
  type ReportName,
  unrecoveredReportResponse,
} from '@kanak/contract';
import type { ReportsService } from './reports.service.js';

/**
 * The owner's view, read-only: the dashboard, and each report as a page (JSON) or, with
 * `format: "csv"`, the whole report as a CSV download. Reports are POSTs (their filters are a
 * body, as the scheme summary's) that change nothing: no Idempotency-Key.
 */
export const reportsRoutes: FastifyPluginAsyncZod<{ reports: ReportsService }> = async (
  app,
  { reports },
) => {
  app.get(
    API_PATHS.dashboard,
    { schema: { querystring: dashboardQuery, response: { 200: dashboardResponse } } },
    async (request) => ({
      success: true,
      data: await reports.dashboard(request.staff, request.query.branch),
    }),
  );

  app.get(API_PATHS.myDay, { schema: { response: { 200: myDayResponse } } }, async (request) => ({
    success: true,
    data: await reports.myDay(request.staff),
  }));

  /** The CSV of the report asked for it, or undefined when a page (JSON) is asked. */
  const csvIfAsked = async (
    request: FastifyRequest,
    reply: FastifyReply,
    name: ReportName,
    filter: ReportFilter,
  ) => {
    if (filter.format !== 'csv') return undefined;
    const csv = await reports.csv(request.staff, name, filter);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${reports.csvFileName(name, filter)}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  };

  app.post(
    API_PATHS.collectionsReport,
    {
      schema: {
        body: reportRequestFor('collections'),
        response: { 200: collectionsReportResponse },
      },
    },
    async (request, reply) =>
      (await csvIfAsked(request, reply, 'collections', request.body)) ?? {
        success: true,
        ...(await reports.pages.collections(request.staff, request.body)),
      },
  );

  app.post(
    API_PATHS.overdueReport,
    { schema: { body: reportRequestFor('overdue'), response: { 200: overdueReportResponse } } },
    async (request, reply) =>
      (await csvIfAsked(request, reply, 'overdue', request.body)) ?? {
        success: true,
        ...(await reports.pages.overdue(request.staff, request.body)),
      },
  );

  app.post(
    API_PATHS.maturingReport,
    { schema: { body: reportRequestFor('maturing'), response: { 200: maturingReportResponse } } },
    async (request, reply) =>
      (await csvIfAsked(request, reply, 'maturing', request.body)) ?? {
        success: true,
        ...(await reports.pages.maturing(request.staff, request.body)),
      },
  );

  app.post(
    API_PATHS.pointsLiabilityReport,
    {
      schema: {
        body: reportRequestFor('points-liability'),
        response: { 200: pointsLiabilityReportResponse },
      },
    },
    async (request, reply) =>
      (await csvIfAsked(request, reply, 'points-liability', request.body)) ?? {
        success: true,
        ...(await reports.pages['points-liability'](request.staff, request.body)),
      },
  );

  app.post(
    API_PATHS.unrecoveredReport,
    {
      schema: {
        body: reportRequestFor('unrecovered'),
        response: { 200: unrecoveredReportResponse },
      },
    },
    async (request, reply) =>
      (await csvIfAsked(request, reply, 'unrecovered', request.body)) ?? {
        success: true,
        ...(await reports.pages.unrecovered(request.staff, request.body)),
      },
  );
};
