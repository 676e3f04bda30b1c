import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { connectDatabase } from './db/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.js';
import { migrateDatabase } from './db/migrate.js';
import { noticeNudge, startJobsOnceReachable } from './jobs.js';
import { resolveSecrets } from './lib/secrets.js';
import { logUnheardRejections } from './lib/unheard-rejections.js';
import { createServices } from './services.js';
import pino from 'pino';

/** After the stop deadline, how long stopping the embedded PostgreSQL may take before we exit. */
const FINAL_EXIT_MS = 5_000;

/** Start: config, database (embedded unless DATABASE_URL), migrations, first admin, listen. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel });
  logUnheardRejections(log);
  const secrets = await resolveSecrets(config.dataDir, {
    jwtSecret: config.jwtSecret,
    dataKey: config.dataKey,
  });

  let embedded: EmbeddedPostgres | undefined;
  const stopEmbedded = async () => {
    await embedded?.stop();
    embedded = undefined;
  };
  // A stop asked for while starting (a service manager, Ctrl-C) must not kill us with the
  // embedded PostgreSQL still running in its own process group: stop it, then exit. Once
  // listening, the stop below finishes the requests first.
  let stop = async (signal: string): Promise<void> => {
    log.info({ signal }, 'stopping while starting');
    await stopEmbedded().catch(() => undefined);
    process.exit(1);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  try {
    if (!config.databaseUrl) {
      embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        password: secrets.embeddedDbPassword,
        log,
      });
    }
    const databaseUrl = config.databaseUrl ?? embedded!.url;
    const database = connectDatabase(databaseUrl, {
      preparedStatements: config.preparedStatements,
    });
    await migrateDatabase(database.db);

    // One set of services for the routes and the jobs of this process.
    const services = createServices(config, {
      database,
      secrets,
      log,
      nudgeNotices: noticeNudge(database.pool, log),
    });
    const generated = await services.users.ensureFirstAdmin(
      config.adminUsername,
      config.adminPassword,
    );
    if (generated) {
      // Printed once, on the console only, never to the log file.
      console.log(
        `\n  First start: created user "${config.adminUsername}" with password: ${generated}\n  Change it under My Profile after signing in.\n`,
      );
    }

    const app = await buildApp({
      config,
      db: database.db,
      pool: database.pool,
      secrets,
      logger: log,
      services,
      sessionsUrl:
        config.databaseDirectUrl ?? (config.preparedStatements ? databaseUrl : undefined),
    });
    await app.listen({ port: config.port, host: config.host });
    // After listening: the first request is not kept waiting for the jobs' schema.
    const jobsStopped = new AbortController();
    const jobs = config.jobs
      ? startJobsOnceReachable({ connectionString: databaseUrl, log, services }, jobsStopped.signal)
      : undefined;

    let stopping = false;
    stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'stopping: finishing requests, then closing the database');
      // Idle keep-alive connections close at once (Fastify's default); a request that never
      // ends (a client that sends half a request, a query waiting on a lock) must not keep the
      // process alive for ever: after the deadline its connection is cut and we exit.
      let forced = false;
      const deadline = setTimeout(() => {
        forced = true;
        log.warn(
          { seconds: config.stopTimeoutSeconds },
          'stopping: requests still running at the deadline, closing their connections and exiting',
        );
        app.server.closeAllConnections();
        // Stopping the embedded PostgreSQL ends the sessions those requests wait in.
        const exit = () => process.exit(1);
        setTimeout(exit, FINAL_EXIT_MS).unref();
        void stopEmbedded().then(exit, exit);
      }, config.stopTimeoutSeconds * 1000);
      deadline.unref();
      await app.close();
      jobsStopped.abort();
      await jobs
        ?.then((started) => started?.stop())
        .catch((error: unknown) => log.warn({ err: error }, 'jobs: stop failed'));
      await database.close();
      await stopEmbedded();
      clearTimeout(deadline);
      log.info('stopped');
      process.exit(forced ? 1 : 0);
    };
    await jobs;
  } catch (error) {
    log.fatal({ err: error }, (error as Error).message);
    await stopEmbedded().catch(() => undefined);
    process.exit(1);
  }
}

void main();
