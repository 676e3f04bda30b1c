import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS, LIMITS, loginRequest } from '@kanak/contract';
import type { AuthService } from './auth.service.js';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    API_PATHS.login,
    {
      schema: { body: loginRequest },
      config: {
        public: true,
        rateLimit: { max: LIMITS.loginAttemptsPerIpPerMinute, timeWindow: '1 minute' },
      },
    },
    async (request) => {
      const { USERNAME, PASSWORD, stayLoggedIn = false } = request.body;
      const user = await auth.login(USERNAME, PASSWORD);
      return {
        success: true,
        accessToken: app.signSessionToken(user, stayLoggedIn),
        username: user.username,
      };
    },
  );
};
