import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS, MESSAGES, updateCurrentUserRequest } from '@kanak/contract';
import type { UsersService } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (
  app,
  { users },
) => {
  app.post(
    API_PATHS.updateCurrentUser,
    { schema: { body: updateCurrentUserRequest }, config: { idempotent: true } },
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
