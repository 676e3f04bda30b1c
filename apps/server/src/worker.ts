import pino from 'pino';
import { loadConfig } from './config.js';
import { migrateDatabase } from './db/migrate.js';
import { noticeNudge, startJobs } from './jobs.js';
import { createServices } from './services.js';
import { openCliDatabase } from './cli/cli-database.js';
import { logUnheardRejections } from './lib/unheard-rejections.js';

/**
 * The background jobs in a process of their own (`npm run worker`); the web instances then
 * run with JOBS=off. Uses DATABASE_URL, or the embedded database of DATA_DIR (started by
 * `npm start`).
 */
async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  logUnheardRejections(log);
  const { database, url, secrets, close } = await openCliDatabase(config, {
    connections: 4,
    log,
  });
  await migrateDatabase(database.db);
  const services = createServices(config, {
    database,
    secrets,
    log,
    nudgeNotices: noticeNudge(database.pool, log),
    replica: false,
  });
  const jobs = await startJobs({ connectionString: url, log, services });
  log.info('worker: jobs running');
  const stop = async () => {
    await jobs.stop();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main();
