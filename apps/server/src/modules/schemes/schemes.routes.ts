import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  activateSchemeRequest,
  addInstallmentRequest,
  API_PATHS,
  closeSchemeResponse,
  generateSchemeRequest,
  generateSchemeResponse,
  LIMITS,
  MESSAGES,
  messageResponse,
  receiptResponse,
  schemeCustomerRequest,
  schemeIdRequest,
  schemeStatementResponse,
  schemesResponse,
  schemeSummaryRequest,
  schemeSummaryResponse,
  updatePanRequest,
  verifyPanResponse,
} from '@kanak/contract';
import { fastAnswers } from '../../lib/fast-answers.js';
import { reread } from '../../plugins/idempotency.js';
import type { SchemesService } from './schemes.service.js';

type Receipt = z.infer<typeof receiptResponse>;

export const schemesRoutes: FastifyPluginAsyncZod<{
  schemes: SchemesService;
}> = async (app, { schemes }) => {
  const changes = { config: { idempotent: true } } as const;
  // A receipt is made out to the customer by name and number: a repeat keeps the rest of it
  // and completes it with the name and number as they are now.
  const receipts = {
    config: {
      idempotent: true,
      replay: reread(
        ({ data: { custname: _name, mobileno: _mobile, ...kept }, ...answer }: Receipt) => ({
          ...answer,
          data: kept,
        }),
        async (kept) => ({
          ...kept,
          data: { ...kept.data, ...(await schemes.receiptHolder(kept.data.schemeid)) },
        }),
      ),
    },
  } as const;

  app.post(
    API_PATHS.schemes,
    { schema: { body: schemeCustomerRequest, response: { 200: schemesResponse } } },
    async (request) => ({
      success: true,
      data: await schemes.list(request.body.custid),
    }),
  );

  app.post(
    API_PATHS.generateScheme,
    {
      schema: { body: generateSchemeRequest, response: { 200: generateSchemeResponse } },
      ...changes,
    },
    async (request) => {
      const scheme = await schemes.generate(request.staff, request.body);
      return {
        success: true,
        message: MESSAGES.schemeGenerated(scheme.id),
        data: { schemeid: scheme.id },
      };
    },
  );

  app.post(
    API_PATHS.verifyPan,
    { schema: { body: schemeCustomerRequest, response: { 200: verifyPanResponse } } },
    async (request) => ({
      success: true,
      data: { pan: await schemes.pan(request.body.custid) },
    }),
  );

  app.post(
    API_PATHS.updatePan,
    { schema: { body: updatePanRequest, response: { 200: messageResponse } }, ...changes },
    async (request) => {
      await schemes.updatePan(request.staff, request.body.custid, request.body.pan);
      return { success: true, message: MESSAGES.panSaved };
    },
  );

  app.post(
    API_PATHS.deleteScheme,
    { schema: { body: schemeIdRequest, response: { 200: messageResponse } }, ...changes },
    async (request) => {
      await schemes.cancel(request.staff, request.body.schemeid);
      return { success: true, message: MESSAGES.schemeCancelled };
    },
  );

  app.post(
    API_PATHS.activateScheme,
    { schema: { body: activateSchemeRequest, response: { 200: receiptResponse } }, ...receipts },
    async (request) => {
      const receipt = await schemes.activate(request.staff, request.body);
      return { success: true, message: MESSAGES.schemeActivated(receipt.schemeid), data: receipt };
    },
  );

  app.post(
    API_PATHS.addInstallment,
    { schema: { body: addInstallmentRequest, response: { 200: receiptResponse } }, ...receipts },
    async (request) => {
      const receipt = await schemes.addInstallment(request.staff, request.body);
      return {
        success: true,
        message: MESSAGES.installmentRecorded(receipt.receiptNo),
        data: receipt,
      };
    },
  );

  app.post(
    API_PATHS.closeScheme,
    { schema: { body: schemeIdRequest, response: { 200: closeSchemeResponse } }, ...changes },
    async (request) => {
      const result = await schemes.close(request.staff, request.body.schemeid);
      return { success: true, message: MESSAGES.schemeClosed(request.body.schemeid), data: result };
    },
  );

  // A read, as the statement is: nothing changes, so no Idempotency-Key.
  app.post(
    API_PATHS.closeSchemePreview,
    { schema: { body: schemeIdRequest, response: { 200: closeSchemeResponse } } },
    async (request) => ({
      success: true,
      data: await schemes.closePreview(request.staff, request.body.schemeid),
    }),
  );

  const statement = { body: schemeIdRequest, response: { 200: schemeStatementResponse } };
  app.post(API_PATHS.schemeStatement, { schema: statement }, async (request) => {
    const { scheme, custname, mobileno, rows } = await schemes.statement(
      request.staff,
      request.body.schemeid,
    );
    return { success: true, data: rows, custname, mobileno, scheme };
  });

  const summary = { body: schemeSummaryRequest, response: { 200: schemeSummaryResponse } };
  app.post(
    API_PATHS.schemeSummary,
    { schema: summary, serializerCompiler: fastAnswers },
    async (request) => {
      const { selected, formData, page, pageSize } = request.body;
      const none = { success: false, message: MESSAGES.noMatchingRecords, data: [], total: 0 };
      if (page === undefined && pageSize === undefined) {
        const { rows, total } = await schemes.summary(request.staff, selected, formData);
        return rows.length === 0 ? none : { success: true, data: rows, total };
      }
      const paging = { page: page ?? 1, pageSize: pageSize ?? LIMITS.summaryPageSize };
      const { rows, count, total } = await schemes.summaryPage(
        request.staff,
        selected,
        formData,
        paging,
      );
      // A page past the last of a filter that has rows is empty, not "no records".
      if (count === 0) return { ...none, count, ...paging };
      return { success: true, data: rows, total, count, ...paging };
    },
  );
};
