import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { API_PREFIX, LIMITS, MESSAGES, todayIn } from '@kanak/contract';
import type pg from 'pg';
import pino from 'pino';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { AppError, DataFaultError } from './lib/errors.js';
import { redactingLogger } from './lib/logging.js';
import { isDatabaseUnavailable } from './lib/pg-errors.js';
import type { Secrets } from './lib/secrets.js';
import { authRepo } from './modules/auth/auth.repo.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { branchesRepo } from './modules/branches/branches.repo.js';
import { branchesRoutes } from './modules/branches/branches.routes.js';
import { createBranchesService } from './modules/branches/branches.service.js';
import { goldRatesRoutes } from './modules/gold-rates/gold-rates.routes.js';
import { createGoldRatesService } from './modules/gold-rates/gold-rates.service.js';
import { createCustomersCsv, createCustomersJson } from './modules/customers/customers.export.js';
import { customersRepo } from './modules/customers/customers.repo.js';
import { createExportTickets } from './modules/customers/customers.export-tickets.js';
import { customersRoutes } from './modules/customers/customers.routes.js';
import { createCustomersService } from './modules/customers/customers.service.js';
import { dataRightsRoutes } from './modules/data-rights/data-rights.routes.js';
import { createDataRightsService } from './modules/data-rights/data-rights.service.js';
import { pointsRoutes } from './modules/points/points.routes.js';
import { pointsRepo } from './modules/points/points.repo.js';
import { createPointsService } from './modules/points/points.service.js';
import { pointsRulesRoutes } from './modules/points/points-rules.routes.js';
import { createPointsRulesService } from './modules/points/points.rules.js';
import { posRoutes } from './modules/points/pos.routes.js';
import { createPosService } from './modules/points/pos.service.js';
import { pointsSummaryReader } from './modules/points/points.summary.js';
import { rulesRepo } from './modules/points/points.rules.js';
import { apiKeysRoutes } from './modules/integrations/api-keys.routes.js';
import { createApiKeysService } from './modules/integrations/api-keys.service.js';
import { schemesRoutes } from './modules/schemes/schemes.routes.js';
import { schemesRepo } from './modules/schemes/schemes.repo.js';
import { createSchemesService } from './modules/schemes/schemes.service.js';
import { contentRoutes } from './modules/content/content.routes.js';
import { createContentService } from './modules/content/content.service.js';
import { messagingRepo } from './modules/messaging/messaging.repo.js';
import { messagingRoutes } from './modules/messaging/messaging.routes.js';
import { createNoticesOutbox } from './modules/notices/notices.outbox.js';
import { noticesRepo } from './modules/notices/notices.repo.js';
import { noticesRoutes } from './modules/notices/notices.routes.js';
import { createNoticesService } from './modules/notices/notices.service.js';
import { createMessagingService } from './modules/messaging/messaging.service.js';
import { createFieldCipher, createKeyedHash } from './lib/crypto.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { openApiPlugin } from './modules/system/openapi.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { staffRoutes } from './modules/users/staff.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { createAuditService } from './modules/audit/audit.service.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { createReportsService } from './modules/reports/reports.service.js';
import { createCsvStreams } from './lib/csv-stream.js';
import { createStaffService } from './modules/users/staff.service.js';
import { authPlugin } from './plugins/auth.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { readsPlugin } from './plugins/reads.js';
import { createReads } from './db/reads.js';
import { windowCounter } from './plugins/rate-limit-store.js';
import { securityPlugin } from './plugins/security.js';
import './plugins/types.js';
import { DEFAULT_WEB_DIST, webPlugin } from './plugins/web.js';

export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
  /** The access matrix's entry the route names itself, where its path has two entries. */
  access?: string | undefined;
  /** The route's zod schemas (body, querystring, params): the bad-input sweep walks them. */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: RegisteredRoute[];
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  secrets: Pick<Secrets, 'jwtSecret' | 'dataKey'>;
  /** The pool behind `db`, for streaming exports. */
  pool: pg.Pool;
  /** "Now" for the store's "today"; tests pin it. */
  clock?: () => Date;
  /** main.ts passes its logger; tests pass none and get a silent one. */
  logger?: FastifyBaseLogger;
  /** Wakes the notices' sender after a notice is queued (main.ts: a pg-boss job). */
  nudgeNotices?: () => void;
}

/**
 * Report CSVs streamed at once in the whole chain (each holds a database connection); the next
 * waits its turn.
 */
const REPORT_CSVS_AT_ONCE = 2;

/** JSON bodies are small forms; image uploads have their own, larger limit. */
const BODY_LIMIT = 256 * 1024;

/** Builds the whole app; main.ts listens on it and tests `inject` into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    loggerInstance: redactingLogger(deps.logger ?? silentLogger()),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    // The server names every request itself: a client's X-Request-Id would otherwise become
    // the log's id and be echoed in error answers, whatever text it held.
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
    // An address the router cannot read (a broken %-escape, an over-long id) names nothing.
    frameworkErrors: (_error, _request, reply: FastifyReply) =>
      reply.code(404).send({ success: false, message: MESSAGES.notFound }),
    // Fastify's own 503 for requests arriving during a graceful stop has its own body; ours
    // (below) has the envelope every screen reads.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every call takes JSON (or a multipart upload); a text body is the wrong type (415), not a
  // string for a schema to puzzle over.
  app.removeContentTypeParser('text/plain');
  logClientRequestId(app);
  app.decorate('config', config);
  app.setErrorHandler(errorHandler);
  refuseRequestsWhileStopping(app);
  // Every route with its access rule: the auth test walks this list, the API docs will too.
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routes.push({
          method,
          url: route.url,
          access: route.config?.access,
          // Read when asked: the API docs' own onRoute hook marks its routes public after this one.
          get public() {
            return route.config?.public === true;
          },
          schema: route.schema,
        });
    }
  });

  // The time spent in the server, for the benchmark and for browser dev tools.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(2)}`);
    return payload;
  });

  const cipher = createFieldCipher(deps.secrets.dataKey);
  const today = () => todayIn(config.storeTimezone, deps.clock?.() ?? new Date());
  // The first branch, made by the migration, takes SHOP_ADDRESS and SHOP_PHONE until the
  // owner gives it an address of its own.
  await branchesRepo.fillFirstBranch(db, config.branding.shopAddress, config.branding.shopPhone);
  const users = createUsersService({
    db,
    branches: branchesRepo,
    preparedStatements: config.preparedStatements,
  });
  const auth = createAuthService({ db, users, log: app.log });
  const customers = createCustomersService({ db, cipher, today, points: pointsSummaryReader });
  const dataRights = createDataRightsService({
    db,
    customers: customersRepo,
    ledger: pointsRepo,
    schemes: schemesRepo,
    notices: noticesRepo,
  });
  // Every change a customer hears of queues its notice here, in the change's transaction.
  const outbox = createNoticesOutbox({
    customers: customersRepo,
    branches: branchesRepo,
    panel: messagingRepo,
    points: pointsSummaryReader,
    shop: config.branding.companyName,
    timeZone: config.storeTimezone,
    clock: deps.clock,
    nudge: deps.nudgeNotices,
  });
  const points = createPointsService({ db, today, customers: customersRepo, notices: outbox });
  const schemes = createSchemesService({
    db,
    today,
    terms: config.schemeTerms,
    customers: customersRepo,
    branches: branchesRepo,
    notices: outbox,
  });
  const pos = createPosService({
    db,
    today,
    customers: customersRepo,
    notices: outbox,
    keyedHash: createKeyedHash(deps.secrets.dataKey, 'pos-documents'),
  });
  const apiKeys = createApiKeysService({ db, branches: branchesRepo });
  const content = createContentService({ db });
  const messaging = createMessagingService({ db, cipher });
  const notices = createNoticesService({
    db,
    timeZone: config.storeTimezone,
    panel: messaging,
    urls: config.messaging.panelUrls,
    shop: config.branding.companyName,
    log: app.log,
    nudge: deps.nudgeNotices,
  });

  await app.register(securityPlugin, { db, sweepAlso: () => authRepo.sweepLockouts(db) });
  await app.register(authPlugin, {
    secret: deps.secrets.jwtSecret,
    findSessionUser: users.findSessionUser,
    findApiKey: apiKeys.findApiKey,
    wrongApiKeys: windowCounter(db, 'wrong-api-key', LIMITS.posWrongKeysWindowMinutes * 60_000),
  });
  await app.register(idempotencyPlugin, {
    db,
    secret: deps.secrets.jwtSecret,
    preparedStatements: config.preparedStatements,
  });
  const reads = createReads({
    primary: { db, pool: deps.pool },
    replicaUrl: config.reports.databaseUrl,
    maxLagSeconds: config.reports.maxLagSeconds,
    log: app.log,
  });
  await app.register(readsPlugin, { reads, noteChange: users.noteChange });
  const reportCsvs = createCsvStreams({
    primary: deps.pool,
    kind: 'reports',
    atOnce: REPORT_CSVS_AT_ONCE,
  });
  // Before the routes: it collects them as they are registered.
  await app.register(openApiPlugin);

  await app.register(
    async (api) => {
      await api.register(systemRoutes, { db });
      await api.register(authRoutes, { auth, signInLimitPerMinute: config.signInLimitPerMinute });
      await api.register(usersRoutes, { users });
      await api.register(staffRoutes, {
        staff: createStaffService({ db, branches: branchesRepo }),
      });
      await api.register(branchesRoutes, { branches: createBranchesService({ db }) });
      await api.register(goldRatesRoutes, { goldRates: createGoldRatesService({ db, today }) });
      await api.register(customersRoutes, {
        customers,
        openCustomersCsv: createCustomersCsv(deps.pool),
        openCustomersJson: createCustomersJson(deps.pool),
        reads,
        exportTickets: createExportTickets({ db, findSessionUser: users.findSessionUser }),
      });
      await api.register(dataRightsRoutes, { dataRights });
      await api.register(pointsRoutes, { points, reads });
      await api.register(pointsRulesRoutes, { rules: createPointsRulesService({ db }) });
      await api.register(posRoutes, { pos });
      await api.register(apiKeysRoutes, { apiKeys });
      await api.register(schemesRoutes, { schemes, reads });
      await api.register(contentRoutes, { content });
      await api.register(messagingRoutes, { messaging });
      await api.register(noticesRoutes, { notices });
      await api.register(auditRoutes, {
        audit: createAuditService({ timeZone: config.storeTimezone }),
        reads,
      });
      await api.register(reportsRoutes, {
        reports: createReportsService({
          reads,
          today,
          timeZone: config.storeTimezone,
          branches: branchesRepo,
          pointValuePaise: async (tx) => (await rulesRepo.current(tx)).pointValuePaise,
          openCsv: reportCsvs,
        }),
      });
    },
    { prefix: API_PREFIX },
  );

  await app.register(webPlugin, { root: config.webDist ?? DEFAULT_WEB_DIST });
  return app;
}

/**
 * During a graceful stop, requests already running finish; a request that still arrives on
 * an open keep-alive connection is refused with 503 before any work (Fastify adds
 * `Connection: close`), so the client can try again once the server is back.
 */
function refuseRequestsWhileStopping(app: FastifyInstance) {
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (stopping) {
      return reply.code(503).send({ success: false, message: MESSAGES.serverStopping });
    }
  });
}

/**
 * A proxy's or client's own X-Request-Id is kept beside ours in the log, to follow a request
 * across systems; only an id's usual characters, so it cannot pass for anything else.
 */
function logClientRequestId(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const given = request.headers['x-request-id'];
    if (typeof given !== 'string' || given === '') return;
    const clientRequestId = given.slice(0, 64).replace(/[^\w.:-]/g, '_');
    reply.log = request.log = request.log.child({ clientRequestId });
  });
}

function silentLogger(): FastifyBaseLogger {
  return pino({ level: 'silent' });
}

/** The one error handler: every failure becomes `{ success: false, message }`. */
function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (request.raw.readableAborted) {
    // The client hung up while sending its body (a cancelled upload, a closed tab): nobody is
    // left to answer, and it is no fault of ours or of the database, whose reset connections
    // carry the same ECONNRESET.
    request.log.info({ code: error.code }, 'client closed the request before its body arrived');
    return reply.code(400).send({ success: false, message: MESSAGES.invalidJson });
  }
  if (error instanceof DataFaultError) request.log.error({ fault: error.fault }, error.name);
  if (error instanceof AppError) {
    return reply.code(error.statusCode).send({ success: false, message: error.message });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return reply.code(400).send({ success: false, message: validationMessage(error.validation) });
  }
  const code = (error as { code?: string }).code ?? '';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
    return reply.code(413).send({ success: false, message: MESSAGES.bodyTooLarge });
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) {
    return reply.code(415).send({ success: false, message: MESSAGES.unsupportedContentType });
  }
  if (code.startsWith('FST_ERR_CTP_') || error instanceof SyntaxError) {
    return reply.code(400).send({ success: false, message: MESSAGES.invalidJson });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return reply.code(503).send({ success: false, message: MESSAGES.databaseUnavailable });
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.code(error.statusCode).send({ success: false, message: error.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(500)
    .send({ success: false, message: MESSAGES.serverError, requestId: request.id });
}

/**
 * Our own schema messages are full sentences ending in a period and name their field;
 * zod's built-in ones do not, so those get the field's path in front.
 */
function validationMessage(issues: { instancePath: string; message?: string }[]): string {
  const messages = issues.map(({ instancePath, message = 'is invalid' }) => {
    if (message.endsWith('.')) return message;
    const field = instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    return `${field}: ${message}.`;
  });
  return [...new Set(messages)].join(' ');
}
