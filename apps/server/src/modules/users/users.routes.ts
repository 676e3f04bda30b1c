import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  LIMITS,
  MESSAGES,
  meResponse,
  updateCurrentUserRequest,
  updateCurrentUserResponse,
} from '@kanak/contract';
import type { UsersService } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (
  app,
  { users },
) => {
  app.get(API_PATHS.me, { schema: { response: { 200: meResponse } } }, async (request) => ({
    success: true,
    data: await users.me(request.staff),
  }));

  app.post(
    API_PATHS.updateCurrentUser,
    {
      schema: { body: updateCurrentUserRequest, response: { 200: updateCurrentUserResponse } },
      config: {
        idempotent: true,
        // The answer carries a fresh session token: not kept. The retry of a change whose
        // answer was lost comes with the token the change ended, and is refused (401).
        replay: { once: MESSAGES.passwordAlreadyUpdated },
        // The old password is checked here, so a session left open must not become a way to
        // guess it: a few tries per user in 15 minutes. Counted after validation: a form
        // refused for its shape never reaches the password check.
        rateLimit: {
          max: LIMITS.passwordChangeAttemptsPerUserPer15Minutes,
          timeWindow: '15 minutes',
          hook: 'preHandler',
          keyGenerator: (request) => `password-change:${request.staff.id}`,
        },
      },
    },
    async (request) => {
      const user = await users.updateOwnPassword(request.staff, request.body);
      // The change ended every session, this one included: hand it a fresh token.
      return {
        success: true,
        message: MESSAGES.passwordUpdated,
        accessToken: app.signSessionToken(user, request.staff.stayLoggedIn),
      };
    },
  );
};
