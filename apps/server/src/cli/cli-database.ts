import pino, { type Logger } from 'pino';
import type { Config } from '../config.js';
import { connectDatabase, type Database } from '../db/client.js';
import { openEmbeddedPostgres } from '../db/embedded.js';
import { resolveSecrets, type Secrets } from '../lib/secrets.js';
import { createServices, type Services } from '../services.js';

export interface CliDatabase {
  database: Database;
  /** The connection string, for a library that opens connections of its own (the jobs). */
  url: string;
  secrets: Secrets;
  /** The app's services on that database, built as the server builds them. */
  services: Services;
  /** Closes the connections, and stops the embedded PostgreSQL if the command started it. */
  close(): Promise<void>;
}

/**
 * The database a command-line tool works on: DATABASE_URL's, or the embedded PostgreSQL in
 * DATA_DIR (that of a running server, or started for the command and stopped by `close`).
 */
export async function openCliDatabase(
  config: Config,
  { connections = 2, log = pino({ level: 'warn' }) }: { connections?: number; log?: Logger } = {},
): Promise<CliDatabase> {
  const secrets = await resolveSecrets(config.dataDir, {
    jwtSecret: config.jwtSecret,
    dataKey: config.dataKey,
  });
  const embedded = config.databaseUrl
    ? undefined
    : await openEmbeddedPostgres({
        dataDir: config.dataDir,
        password: secrets.embeddedDbPassword,
        log,
      });
  const url = config.databaseUrl ?? embedded!.url;
  const database = connectDatabase(url, {
    max: connections,
    preparedStatements: config.preparedStatements,
  });
  return {
    database,
    url,
    secrets,
    services: createServices(config, { database, secrets, replica: false, log }),
    async close() {
      await database.close();
      await embedded?.stop();
    },
  };
}
