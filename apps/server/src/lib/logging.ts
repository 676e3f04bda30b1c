import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import pino from 'pino';

const CENSOR = '[redacted]';

/**
 * Nothing below is logged by our code today (requests are logged without headers or body);
 * these paths keep a password, a token or an Aadhaar number out of the log should anyone log
 * a header set, a body or a form later (ASVS 7.1.1, 8.3.5).
 */
const REDACTED_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  // The multipart parser logs the request's headers at trace level.
  'busboyOptions.headers.authorization',
  'busboyOptions.headers.cookie',
  'body.PASSWORD',
  'body.oldpassword',
  'body.newpassword',
  'body.formData.aadhaar',
  'body.formData.token',
  ...[
    'PASSWORD',
    'password',
    'oldpassword',
    'newpassword',
    'accessToken',
    'token',
    'aadhaar',
  ].flatMap((key) => [key, `*.${key}`]),
];

/**
 * The app's logger: the given one with secrets redacted, request lines naming the route
 * rather than the address (`/api/pos/customers/:mobile`, not the customer's number) and the
 * values of a failed SQL statement left out of errors (drizzle puts every parameter into its
 * error message: a PAN, an address, a password hash).
 */
export function redactingLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child(
    {},
    {
      redact: { paths: REDACTED_PATHS, censor: CENSOR },
      serializers: { req: requestForLog, err: errorForLog },
    },
  );
}

/**
 * Fastify's request serializer, naming the request by its route's pattern: a path may hold a
 * mobile number, and a log line outlives the customer's erasure. Query-string names are kept,
 * their values replaced (a search may be a mobile number).
 */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: urlForLog(request),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The request's path as a log line may name it: its route's pattern, or, when no route matched
 * (a 404, a client route of the web app, a body refused before routing), the path with its
 * digits replaced, as they could still be a mobile number sent to a wrong address.
 */
export function pathForLog(request: FastifyRequest): string {
  return request.routeOptions?.url ?? (request.url.split('?')[0] ?? '').replace(/\d+/g, '#');
}

function urlForLog(request: FastifyRequest): string {
  const url = request.url;
  const start = url.indexOf('?');
  const path = pathForLog(request);
  if (start < 0) return path;
  const names = url
    .slice(start + 1)
    .split('&')
    .map((pair) => `${pair.split('=')[0]!.replace(/\d+/g, '#')}=*`);
  return `${path}?${names.join('&')}`;
}

interface SerializedError {
  message?: string;
  stack?: string;
  params?: unknown;
  detail?: unknown;
  [key: string]: unknown;
}

/** pino's error serializer without SQL parameter values or PostgreSQL's row details. */
function errorForLog(error: Error): SerializedError {
  const serialized: SerializedError = { ...pino.stdSerializers.err(error) };
  if (Array.isArray(serialized.params)) {
    // DrizzleQueryError: "Failed query: <sql>\nparams: <values joined by commas>".
    const values = `\nparams: ${String(serialized.params)}`;
    for (const key of ['message', 'stack'] as const) {
      serialized[key] = serialized[key]?.replace(values, `\nparams: ${CENSOR}`);
    }
    serialized.params = CENSOR;
  }
  // PostgreSQL's "Failing row contains (...)" and "Key (mobileno)=(...)" hold customer data.
  if (serialized.detail !== undefined) serialized.detail = CENSOR;
  // pg-pool hangs the whole connection on an idle client's error: its parameters, protocol
  // state and cancel key, hundreds of lines that say nothing about what went wrong.
  delete serialized.client;
  return serialized;
}

/**
 * A background error as the log needs it: what happened, PostgreSQL's code and the queue of
 * a failed job, nothing of the connection or the job's data. The jobs also log through plain
 * pino loggers (the worker's), so they cannot rely on the app's error serializer.
 */
export function errorInBrief(error: unknown): { message: string; code?: string; queue?: string } {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const { message, code, params, queue } = error as Record<string, unknown>;
  let text = String(message ?? error);
  // A failed job's statement, as in errorForLog.
  if (Array.isArray(params))
    text = text.replace(`\nparams: ${String(params)}`, `\nparams: ${CENSOR}`);
  return {
    message: text,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    ...(typeof queue === 'string' ? { queue } : {}),
  };
}
