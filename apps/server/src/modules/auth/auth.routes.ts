import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS, loginRequest, loginResponse, MESSAGES, messageResponse } from '@kanak/contract';
import type { AuthService } from './auth.service.js';

export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  /** Sign-in attempts one address may make in a minute. */
  signInLimitPerMinute: number;
}> = async (app, { auth, signInLimitPerMinute }) => {
  app.post(
    API_PATHS.login,
    {
      schema: { body: loginRequest, response: { 200: loginResponse } },
      config: {
        public: true,
        // Counted in the database after validation: a body refused for its shape never
        // reaches the password check, and costs no write.
        rateLimit: {
          max: signInLimitPerMinute,
          timeWindow: '1 minute',
          hook: 'preHandler',
        },
      },
    },
    async (request) => {
      const { USERNAME, PASSWORD, stayLoggedIn = false } = request.body;
      const user = await auth.login(USERNAME, PASSWORD, request.ip);
      return {
        success: true,
        accessToken: app.signSessionToken(user, stayLoggedIn),
        username: user.username,
        ...(user.mustChangePassword ? { mustChangePassword: true } : {}),
      };
    },
  );

  // Not `idempotent`: ending a token twice changes nothing more, and a retry after the first
  // succeeded is refused at the door (401), harmlessly.
  app.post(
    API_PATHS.logout,
    { schema: { response: { 200: messageResponse } } },
    async (request) => {
      const { jti, exp } = request.user;
      await auth.logout(request.staff, { jti, expiresAt: new Date(exp * 1000) });
      return { success: true, message: MESSAGES.loggedOut };
    },
  );
};
