import { ConfigError, loadConfig, type Config } from '../config.js';
import type { Database } from '../db/client.js';
import { AppError } from '../lib/errors.js';
import type { Secrets } from '../lib/secrets.js';
import { BackupError } from '../db/backup-file.js';
import type { Services } from '../services.js';
import { openCliDatabase } from './cli-database.js';

/**
 * For `npm run backup` and `npm run restore`: the database of DATABASE_URL, or the embedded one
 * in DATA_DIR (that of a running server, or started for the command and stopped after). An
 * error the operator can act on is printed as a sentence; the exit code is 1.
 */
export async function withDatabase(
  work: (context: {
    database: Database;
    config: Config;
    secrets: Secrets;
    services: Services;
  }) => Promise<void>,
): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 2;
    return;
  }
  const { database, secrets, services, close } = await openCliDatabase(config);
  try {
    await work({ database, config, secrets, services });
  } catch (error) {
    // A refusal (another backup is being made) is a sentence as well.
    console.error(
      error instanceof BackupError || error instanceof AppError ? error.message : error,
    );
    process.exitCode = 1;
  } finally {
    await close();
  }
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
