import pino from 'pino';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { connectDatabase, type Database } from '../db/client.js';
import { openEmbeddedPostgres } from '../db/embedded.js';
import { resolveSecrets, type Secrets } from '../lib/secrets.js';
import { BackupError } from './backup-file.js';

/**
 * For `npm run backup` and `npm run restore`: the database of DATABASE_URL, or the embedded one
 * in DATA_DIR (that of a running server, or started for the command and stopped after). An
 * error the operator can act on is printed as a sentence; the exit code is 1.
 */
export async function withDatabase(
  work: (context: { database: Database; config: Config; secrets: Secrets }) => Promise<void>,
): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 2;
    return;
  }
  const secrets = await resolveSecrets(config.dataDir, {
    jwtSecret: config.jwtSecret,
    dataKey: config.dataKey,
  });
  const embedded = config.databaseUrl
    ? undefined
    : await openEmbeddedPostgres({
        dataDir: config.dataDir,
        password: secrets.embeddedDbPassword,
        log: pino({ level: 'warn' }),
      });
  const database = connectDatabase(config.databaseUrl ?? embedded!.url, { max: 2 });
  try {
    await work({ database, config, secrets });
  } catch (error) {
    console.error(error instanceof BackupError ? error.message : error);
    process.exitCode = 1;
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
