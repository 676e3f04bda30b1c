import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  NOTICE_EVENT_LABELS,
  NOTICE_MESSAGES,
  noticesQuery,
  noticesResponse,
  noticeTemplatesResponse,
  resendNoticeRequest,
  resendNoticeResponse,
  saveNoticeTemplateRequest,
  saveNoticeTemplateResponse,
  testMessageRequest,
  testMessageResponse,
  type NoticeEntry,
} from '@kanak/contract';
import { branchOf } from '../../lib/branch-scope.js';
import { reread } from '../../plugins/idempotency.js';
import type { NoticesService } from './notices.service.js';

export const noticesRoutes: FastifyPluginAsyncZod<{ notices: NoticesService }> = async (
  app,
  { notices },
) => {
  const resent = (entry: NoticeEntry) => ({
    success: true,
    message: NOTICE_MESSAGES.noticeResent(entry.id),
    data: entry,
  });

  app.get(
    API_PATHS.noticeTemplates,
    { schema: { response: { 200: noticeTemplatesResponse } } },
    async () => ({ success: true, data: await notices.templates() }),
  );

  app.post(
    API_PATHS.noticeTemplates,
    {
      schema: { body: saveNoticeTemplateRequest, response: { 200: saveNoticeTemplateResponse } },
      config: { idempotent: true },
    },
    async (request) => ({
      success: true,
      message: NOTICE_MESSAGES.templateSaved(NOTICE_EVENT_LABELS[request.body.event]),
      data: await notices.saveTemplate(request.staff, request.body),
    }),
  );

  app.get(
    API_PATHS.notices,
    { schema: { querystring: noticesQuery, response: { 200: noticesResponse } } },
    async (request) => {
      const { page, ...filters } = request.query;
      // A manager sees their own branch's notices only; the owner every branch's.
      const branchId = branchOf(request.staff);
      return { success: true, ...(await notices.page({ ...filters, branchId }, page)) };
    },
  );

  app.post(
    API_PATHS.noticeResend,
    {
      schema: { body: resendNoticeRequest, response: { 200: resendNoticeResponse } },
      config: {
        idempotent: true,
        // The notice's number and text are the customer's: a repeat reads the notice afresh.
        replay: reread(
          (answer: { data: { id: number } }) => answer.data.id,
          async (id) => resent(await notices.entry(id)),
        ),
      },
    },
    async (request) => resent(await notices.resend(request.staff, request.body.id)),
  );

  // A change in the world, if not in the database: a retry with the same Idempotency-Key gets
  // the first answer and sends nothing more.
  app.post(
    API_PATHS.testMessage,
    {
      schema: { body: testMessageRequest, response: { 200: testMessageResponse } },
      config: { idempotent: true },
    },
    async () => {
      const result = await notices.testMessage();
      return {
        success: result.sent,
        message: result.sent
          ? NOTICE_MESSAGES.testMessageSent
          : NOTICE_MESSAGES.testMessageFailed(result.answer),
        data: result,
      };
    },
  );
};
