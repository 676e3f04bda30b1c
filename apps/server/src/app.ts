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
import { API_PREFIX, LIMITS, MESSAGES, refusalMessage } from '@kanak/contract';
import type pg from 'pg';
import pino from 'pino';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { migrationsPending } from './db/migrate.js';
import { AppError, DataFaultError } from './lib/errors.js';
import { redactingLogger } from './lib/logging.js';
import { isDatabaseUnavailable } from './lib/pg-errors.js';
import type { Secrets } from './lib/secrets.js';
import { authRepo } from './modules/auth/auth.repo.js';
import { branchesRepo } from './modules/branches/branches.repo.js';
import { branchesRoutes } from './modules/branches/branches.routes.js';
import { goldRatesRoutes } from './modules/gold-rates/gold-rates.routes.js';
import { customersRoutes } from './modules/customers/customers.routes.js';
import { dataRightsRoutes } from './modules/data-rights/data-rights.routes.js';
import { pointsRoutes } from './modules/points/points.routes.js';
import { pointsRulesRoutes } from './modules/points/points-rules.routes.js';
import { posRoutes } from './modules/points/pos.routes.js';
import { tiersRoutes } from './modules/points/tiers.routes.js';
import { apiKeysRoutes } from './modules/integrations/api-keys.routes.js';
import { schemesRoutes } from './modules/schemes/schemes.routes.js';
import { schemePlansRoutes } from './modules/schemes/scheme-plans.routes.js';
import { contentRoutes } from './modules/content/content.routes.js';
import { messagingRoutes } from './modules/messaging/messaging.routes.js';
import { noticesRoutes } from './modules/notices/notices.routes.js';
import { whatsappRoutes } from './modules/whatsapp/whatsapp.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { metricsRoutes } from './modules/system/metrics.routes.js';
import { openApiPlugin } from './modules/system/openapi.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { createSessionCache } from './modules/users/session-cache.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { staffRoutes } from './modules/users/staff.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { backupsRoutes } from './modules/backups/backups.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { withShopSettings } from './modules/settings/settings.service.js';
import { importRoutes } from './modules/import/import.routes.js';
import { accountingRoutes } from './modules/accounting/accounting.routes.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { counterRoutes } from './modules/counter/counter.routes.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { refundsRoutes } from './modules/members/refunds.routes.js';
import { authPlugin } from './plugins/auth.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { readsPlugin } from './plugins/reads.js';
import { windowCounter } from './plugins/rate-limit-store.js';
import { securityPlugin } from './plugins/security.js';
import './plugins/types.js';
import { createServices, type Services } from './services.js';
import { createServerMetrics } from './metrics.js';
import { DEFAULT_WEB_DIST, originOf, webPlugin } from './plugins/web.js';

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
  /** The services main.ts built for the server and its jobs; else built here. */
  services?: Services;
  /**
   * A direct connection to the database (not through a pooler) on which this server hears of
   * ended sessions and so keeps checked ones in memory; without it every request checks its
   * session in the database.
   */
  sessionsUrl?: string;
}

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
  app.setErrorHandler(errorHandler);
  const stopping = refuseRequestsWhileStopping(app);
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

  const services =
    deps.services ??
    createServices(config, {
      database: { db, pool: deps.pool },
      secrets: deps.secrets,
      clock: deps.clock,
      log: app.log,
      nudgeNotices: deps.nudgeNotices,
    });
  const { users, reads } = services;
  // The first branch, made by the migration, takes SHOP_ADDRESS and SHOP_PHONE until the
  // owner gives it an address of its own.
  await branchesRepo.fillFirstBranch(db, config.branding.shopAddress, config.branding.shopPhone);
  // The shop's settings take COMPANY_NAME and the rest at the first start only: from then on
  // the owner's Shop Settings screen is what counts.
  await services.settings.seed();

  await app.register(securityPlugin, { db, sweepAlso: () => authRepo.sweepLockouts(db) });
  const sessions = createSessionCache({
    check: users.findSessionUser,
    listenUrl: deps.sessionsUrl,
    db,
    log: app.log,
  });
  app.addHook('onClose', () => sessions.close());
  await app.register(authPlugin, {
    secret: deps.secrets.jwtSecret,
    findSessionUser: sessions.find,
    sessionsCaughtUp: sessions.caughtUp,
    findApiKey: services.apiKeys.findApiKey,
    findMemberSession: services.members.findSession,
    wrongApiKeys: windowCounter(db, 'wrong-api-key', LIMITS.posWrongKeysWindowMinutes * 60_000),
  });
  await app.register(idempotencyPlugin, {
    db,
    secret: deps.secrets.jwtSecret,
    preparedStatements: config.preparedStatements,
  });
  await app.register(readsPlugin, { reads, noteChange: users.noteChange });
  // Before the routes: it times every request, whichever route takes it.
  await app.register(metricsRoutes, {
    served: config.metricsToken
      ? {
          token: config.metricsToken,
          metrics: createServerMetrics({ db, pool: deps.pool, reads, today: services.today }),
        }
      : undefined,
  });
  // Before the routes: it collects them as they are registered.
  await app.register(openApiPlugin);

  await app.register(
    async (api) => {
      await api.register(systemRoutes, {
        // The shop's name, phones, GSTIN and logo as the owner set them; the first branch's
        // address, the time zone and the scheme terms from the environment.
        shop: async () =>
          withShopSettings(
            { ...config.branding, ...config.schemeTerms },
            await services.settings.shop(),
          ),
        checkDatabase: services.checkDatabase,
        migrationsPending: () => migrationsPending(db),
        stopping,
      });
      await api.register(authRoutes, {
        auth: services.auth,
        signInLimitPerMinute: config.signInLimitPerMinute,
      });
      await api.register(usersRoutes, { users });
      await api.register(staffRoutes, { staff: services.staff });
      await api.register(branchesRoutes, { branches: services.branches });
      await api.register(goldRatesRoutes, { goldRates: services.goldRates });
      await api.register(customersRoutes, {
        customers: services.customers,
        exports: services.customersExports,
        exportTickets: services.exportTickets,
      });
      await api.register(dataRightsRoutes, { dataRights: services.dataRights });
      await api.register(pointsRoutes, { points: services.points });
      await api.register(pointsRulesRoutes, { rules: services.pointsRules });
      await api.register(posRoutes, { pos: services.pos });
      await api.register(tiersRoutes, { tiers: services.tiers });
      await api.register(apiKeysRoutes, { apiKeys: services.apiKeys });
      await api.register(schemesRoutes, { schemes: services.schemes });
      await api.register(schemePlansRoutes, { schemePlans: services.schemePlans });
      await api.register(contentRoutes, { content: services.content });
      await api.register(messagingRoutes, { messaging: services.messaging });
      await api.register(noticesRoutes, { notices: services.notices });
      await api.register(whatsappRoutes, { whatsapp: services.whatsapp });
      await api.register(auditRoutes, { audit: services.audit });
      await api.register(accountingRoutes, { accounting: services.accounting });
      await api.register(reportsRoutes, { reports: services.reports });
      await api.register(counterRoutes, { counter: services.counter });
      await api.register(membersRoutes, {
        members: services.members,
        payments: services.memberPayments,
      });
      await api.register(refundsRoutes, { payments: services.memberPayments });
      await api.register(importRoutes, { imports: services.imports });
      await api.register(backupsRoutes, { backups: services.backups });
      await api.register(settingsRoutes, { settings: services.settings });
    },
    { prefix: API_PREFIX },
  );

  await app.register(webPlugin, {
    root: config.webDist ?? DEFAULT_WEB_DIST,
    // The gateway's Standard Checkout: its script, the frames it opens from its own host and
    // from the API's, and the calls its script makes from the page to the gateway's API.
    portalSources: {
      'script-src': originOf(config.razorpay.checkoutUrl),
      'frame-src': [
        ...new Set([...originOf(config.razorpay.checkoutUrl), ...originOf(config.razorpay.url)]),
      ],
      'connect-src': originOf(config.razorpay.url),
    },
  });
  return app;
}

/**
 * During a graceful stop, requests already running finish; a request that still arrives on
 * an open keep-alive connection is refused with 503 before any work (Fastify adds
 * `Connection: close`), so the client can try again once the server is back. Answers whether
 * the stop has begun (the readiness check says so too).
 */
function refuseRequestsWhileStopping(app: FastifyInstance): () => boolean {
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (stopping) {
      return reply.code(503).send({ success: false, message: MESSAGES.serverStopping });
    }
  });
  return () => stopping;
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
    return reply.code(error.statusCode).send({
      success: false,
      message: error.message,
      ...(error.code ? { code: error.code } : {}),
    });
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
 * Our own schema messages are full sentences naming their field as the screens do; zod's
 * built-in ones are not, so the contract says those, the field named in words.
 */
function validationMessage(issues: { instancePath: string; message?: string }[]): string {
  return refusalMessage(
    issues.map(({ instancePath, message = '' }) => ({
      path: instancePath
        .split('/')
        .filter((part) => part !== '')
        .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      message,
    })),
  );
}
