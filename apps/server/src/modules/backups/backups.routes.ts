import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_PATHS,
  BACKUP_MESSAGES,
  backupNowResponse,
  backupsQuery,
  backupsResponse,
  backupTicketRequest,
  backupTicketResponse,
} from '@kanak/contract';
import { reread } from '../../plugins/idempotency.js';
import type { BackupsService } from './backups.service.js';

type Started = z.infer<typeof backupNowResponse>;

export const backupsRoutes: FastifyPluginAsyncZod<{ backups: BackupsService }> = async (
  app,
  { backups },
) => {
  // A graceful stop lets a backup begun from the browser finish (within the stop's deadline).
  app.addHook('onClose', () => backups.settled());

  app.get(
    API_PATHS.backups,
    {
      schema: { querystring: backupsQuery, response: { 200: backupsResponse } },
      config: { access: 'backups' },
    },
    async (request) => ({ success: true, data: await backups.list(request.query.page) }),
  );

  app.post(
    API_PATHS.backupNow,
    {
      schema: { response: { 200: backupNowResponse } },
      config: {
        idempotent: true,
        access: 'backupNow',
        // A repeat reads the backup as it is now: running, good or failed.
        replay: reread(
          (answer: Started) => answer.data.id,
          async (id) => ({
            success: true,
            message: BACKUP_MESSAGES.started,
            data: await backups.get(id),
          }),
        ),
      },
    },
    async (request) => ({
      success: true,
      message: BACKUP_MESSAGES.started,
      data: await backups.start(request.staff),
    }),
  );

  app.post(
    API_PATHS.backupTicket,
    { schema: { body: backupTicketRequest, response: { 200: backupTicketResponse } } },
    async (request) => ({
      success: true,
      data: await backups.issueTicket(
        { userId: request.staff.id, tokenVersion: request.user.ver, jti: request.user.jti },
        request.body.id,
      ),
    }),
  );

  // Public: a browser download carries no bearer token. The ticket in the link stands for it.
  app.get(
    API_PATHS.backupDownload,
    {
      config: { public: true },
      schema: {
        querystring: z.object({
          ticket: z
            .string()
            .regex(/^[\w-]{0,100}$/, BACKUP_MESSAGES.linkInvalid)
            .default(''),
        }),
      },
    },
    async (request, reply) => {
      const { user, fileName, bytes, stream } = await backups.download(request.query.ticket);
      reply.log = request.log = request.log.child({ user: user.username });
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('content-length', bytes)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
