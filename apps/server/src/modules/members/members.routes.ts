import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  memberDataExportResponse,
  DATA_RIGHTS_MESSAGES,
  MEMBER_LIMITS,
  MEMBER_MESSAGES,
  memberConsentRequest,
  memberConsentResponse,
  memberMeResponse,
  memberOtpRequest,
  memberOtpResponse,
  memberPassbookResponse,
  memberPaymentVerifyRequest,
  memberPaymentVerifyResponse,
  memberPayResponse,
  memberPointsQuery,
  memberPointsResponse,
  memberSchemeParams,
  memberVerifyRequest,
  memberVerifyResponse,
  messageResponse,
  razorpayWebhookResponse,
  MEMBER_API_PATHS,
} from '@kanak/contract';
import type { MemberPayments } from './members.payments.js';
import type { MembersService } from './members.service.js';

interface Options {
  members: MembersService;
  payments: MemberPayments;
}

/**
 * The customer's own calls. Each is safe to repeat by its nature (a sign-out, a choice of
 * consent, a payment known by its id), so they need no Idempotency-Key.
 */
export const membersRoutes: FastifyPluginAsyncZod<Options> = async (app, { members, payments }) => {
  app.post(
    MEMBER_API_PATHS.memberOtp,
    {
      schema: { body: memberOtpRequest, response: { 200: memberOtpResponse } },
      config: { public: true },
    },
    async (request) => ({
      success: true,
      data: await members.requestCode(request.body.mobile, request.ip),
    }),
  );

  app.post(
    MEMBER_API_PATHS.memberVerify,
    {
      schema: { body: memberVerifyRequest, response: { 200: memberVerifyResponse } },
      config: { public: true },
    },
    async (request, reply) => {
      const { customerId, jti } = await members.verifyCode(
        request.body.mobile,
        request.body.code,
        request.ip,
      );
      reply.header('cache-control', 'no-store');
      return {
        success: true,
        data: {
          token: app.signMemberToken(customerId, jti),
          expiresInSeconds: MEMBER_LIMITS.sessionLifetimeSeconds,
        },
      };
    },
  );

  app.post(
    MEMBER_API_PATHS.memberLogout,
    { schema: { response: { 200: messageResponse } } },
    async (request) => {
      await members.signOut(request.member.customerId, request.member.jti);
      return { success: true, message: MEMBER_MESSAGES.signedOut };
    },
  );

  app.get(
    MEMBER_API_PATHS.memberMe,
    { schema: { response: { 200: memberMeResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true, data: await members.me(request.member.customerId) };
    },
  );

  app.get(
    MEMBER_API_PATHS.memberPoints,
    { schema: { querystring: memberPointsQuery, response: { 200: memberPointsResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { rows, total } = await members.points(request.member.customerId, request.query.page);
      return { success: true, data: rows, total };
    },
  );

  app.get(
    MEMBER_API_PATHS.memberScheme,
    { schema: { params: memberSchemeParams, response: { 200: memberPassbookResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        success: true,
        data: await members.passbook(request.member.customerId, request.params.schemeid),
      };
    },
  );

  app.post(
    MEMBER_API_PATHS.memberConsent,
    { schema: { body: memberConsentRequest, response: { 200: memberConsentResponse } } },
    async (request) => {
      const { purpose, granted } = request.body;
      return {
        success: true,
        message: DATA_RIGHTS_MESSAGES.consentRecorded(purpose, granted),
        data: await members.consent(request.member.customerId, purpose, granted),
      };
    },
  );

  app.get(
    MEMBER_API_PATHS.memberDataExport,
    { schema: { response: { 200: memberDataExportResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true, data: await members.dataExport(request.member.customerId) };
    },
  );

  app.post(
    MEMBER_API_PATHS.memberPay,
    { schema: { params: memberSchemeParams, response: { 200: memberPayResponse } } },
    async (request) => ({
      success: true,
      data: await payments.pay(request.member.customerId, request.params.schemeid),
    }),
  );

  app.post(
    MEMBER_API_PATHS.memberPaymentVerify,
    {
      schema: { body: memberPaymentVerifyRequest, response: { 200: memberPaymentVerifyResponse } },
    },
    async (request) => ({
      success: true,
      message: MEMBER_MESSAGES.paymentRecorded,
      data: await payments.verify(request.member.customerId, request.body),
    }),
  );

  // The webhook's signature is over the body exactly as sent: this scope keeps it raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      MEMBER_API_PATHS.razorpayWebhook,
      { schema: { response: { 200: razorpayWebhookResponse } }, config: { public: true } },
      async (request) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        await payments.webhook(
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          header('x-razorpay-signature'),
          header('x-razorpay-event-id'),
        );
        return { success: true };
      },
    );
  });
};
