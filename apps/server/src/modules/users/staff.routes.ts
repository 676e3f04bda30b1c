import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_PATHS,
  MESSAGES,
  messageResponse,
  staffAddRequest,
  staffListResponse,
  staffUpdateRequest,
  staffUsernameRequest,
  temporaryPasswordResponse,
} from '@kanak/contract';
import type { StaffService } from './staff.service.js';

export const staffRoutes: FastifyPluginAsyncZod<{ staff: StaffService }> = async (
  app,
  { staff },
) => {
  const changes = { config: { idempotent: true } } as const;

  app.get(
    API_PATHS.staff,
    { schema: { response: { 200: staffListResponse } } },
    async (request) => ({
      success: true,
      data: await staff.list(request.staff),
    }),
  );

  app.post(
    API_PATHS.staffAdd,
    {
      schema: { body: staffAddRequest, response: { 200: temporaryPasswordResponse } },
      // The temporary password is shown once and kept nowhere.
      config: { idempotent: true, replay: { once: MESSAGES.staffAddedShownOnce } },
    },
    async (request) => ({
      success: true,
      message: MESSAGES.staffAdded(request.body.username),
      data: await staff.add(request.staff, request.body),
    }),
  );

  app.post(
    API_PATHS.staffUpdate,
    { schema: { body: staffUpdateRequest, response: { 200: messageResponse } }, ...changes },
    async (request) => {
      await staff.update(request.staff, request.body);
      return { success: true, message: MESSAGES.staffUpdated(request.body.username) };
    },
  );

  app.post(
    API_PATHS.staffDisable,
    { schema: { body: staffUsernameRequest, response: { 200: messageResponse } }, ...changes },
    async (request) => {
      await staff.setDisabled(request.staff, request.body.username, true);
      return { success: true, message: MESSAGES.staffDisabled(request.body.username) };
    },
  );

  app.post(
    API_PATHS.staffEnable,
    { schema: { body: staffUsernameRequest, response: { 200: messageResponse } }, ...changes },
    async (request) => {
      await staff.setDisabled(request.staff, request.body.username, false);
      return { success: true, message: MESSAGES.staffEnabled(request.body.username) };
    },
  );

  app.post(
    API_PATHS.staffResetPassword,
    {
      schema: { body: staffUsernameRequest, response: { 200: temporaryPasswordResponse } },
      config: { idempotent: true, replay: { once: MESSAGES.staffPasswordResetShownOnce } },
    },
    async (request) => ({
      success: true,
      message: MESSAGES.staffPasswordReset(request.body.username),
      data: await staff.resetPassword(request.staff, request.body.username),
    }),
  );
};
