import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_PATHS, API_PREFIX, LIMITS } from '@kanak/contract';
import { pathForLog } from '../lib/logging.js';

const LOGIN_URL = `${API_PREFIX}${API_PATHS.login}`;

/** What a refusal means, by status, for the log. */
const REFUSALS: Record<number, string> = {
  400: 'input refused',
  401: 'session refused',
  403: 'access refused',
  413: 'input refused',
  415: 'input refused',
  429: 'rate limited',
};

/**
 * One log line per sign-in, successful or not, and per refused request, with who and from
 * where (ASVS 7.1.3, 7.2.1, 7.2.2). Never a password or a token: the line is built from the
 * username, the route and the status only. Changes themselves are in the audit table.
 */
export const securityLogPlugin = fp(async (app) => {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const signIn = request.routeOptions.url === LOGIN_URL;
    if (!signIn && !REFUSALS[status]) return;
    const event = signIn ? (status === 200 ? 'sign-in' : 'sign-in refused') : REFUSALS[status];
    const line = {
      event,
      status,
      // Signed-in requests name their user already (the auth plugin binds it to the log).
      ...(signIn ? { user: typedUsername(request) } : {}),
      ip: request.ip,
      route: `${request.method} ${pathForLog(request)}`,
    };
    if (status < 400) request.log.info(line, 'security event');
    else request.log.warn(line, 'security event');
  });
});

/** The username typed at sign-in (it may be unknown), cut to the longest a username can be. */
function typedUsername(request: FastifyRequest): string | undefined {
  const body = request.body as { USERNAME?: unknown } | undefined;
  return typeof body?.USERNAME === 'string'
    ? body.USERNAME.slice(0, LIMITS.usernameMaxLength)
    : undefined;
}
