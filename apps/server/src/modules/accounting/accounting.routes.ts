import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNTING_MESSAGES,
  API_PATHS,
  RAZORPAY_SETTLEMENTS_HEADER,
  accountingSettings,
  accountingSettingsResponse,
  tallyExportRequest,
  tallyExportResponse,
  tallyFileName,
  tallyPushRequest,
  tallyPushResponse,
  type TallyPushResult,
} from '@kanak/contract';
import { reread } from '../../plugins/idempotency.js';
import type { AccountingService, SettlementsIncluded } from './accounting.service.js';

const sendFile = (
  reply: FastifyReply,
  fileName: string,
  { file, settlements }: { file: AsyncIterable<string>; settlements: SettlementsIncluded },
) =>
  reply
    .type('application/xml; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .header(RAZORPAY_SETTLEMENTS_HEADER, String(settlements))
    .send(Readable.from(file));

/** The owner's hand-off to the accountant: Tally's ledger names, the import file, the push. */
export const accountingRoutes: FastifyPluginAsyncZod<{ accounting: AccountingService }> = async (
  app,
  { accounting },
) => {
  app.get(
    API_PATHS.accountingSettings,
    { schema: { response: { 200: accountingSettingsResponse } } },
    async () => ({ success: true, data: await accounting.settings() }),
  );

  app.post(
    API_PATHS.accountingSettings,
    {
      schema: { body: accountingSettings, response: { 200: accountingSettingsResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      await accounting.saveSettings(request.staff, request.body);
      return {
        success: true,
        message: ACCOUNTING_MESSAGES.settingsSaved,
        data: await accounting.settings(),
      };
    },
  );

  // A read of Kanak's books: a repeat sends the file again, so it needs no Idempotency-Key.
  // (Razorpay's settlements it records on the way are recorded once each, by their id.)
  app.post(
    API_PATHS.tallyExport,
    // The answer is the file, streamed past the serializer.
    { schema: { body: tallyExportRequest, response: { 200: tallyExportResponse } } },
    async (request, reply) =>
      sendFile(
        reply,
        tallyFileName(request.body),
        await accounting.exportFile(request.staff, request.body),
      ),
  );

  app.post(
    API_PATHS.tallyPush,
    {
      schema: { body: tallyPushRequest, response: { 200: tallyPushResponse } },
      config: {
        idempotent: true,
        // Tally's LINEERRORs may quote a voucher's narration, which names the customer: a
        // repeat gets Tally's counts only.
        replay: reread(
          ({ data }: { data: TallyPushResult }) => ({
            vouchers: data.vouchers,
            created: data.created,
            altered: data.altered,
            errors: data.errors,
          }),
          async (counts: Omit<TallyPushResult, 'lineErrors'>) => {
            const data = { ...counts, lineErrors: [] };
            return { success: true, message: ACCOUNTING_MESSAGES.pushedAgain(data), data };
          },
        ),
      },
    },
    async (request) => {
      const result = await accounting.push(request.staff, request.body);
      return { success: true, message: ACCOUNTING_MESSAGES.pushed(result), data: result };
    },
  );
};
