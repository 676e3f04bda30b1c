import { parseArgs } from 'node:util';
import pino from 'pino';
import { ROLES } from '@kanak/contract';
import { loadConfig } from '../config.js';
import { connectDatabase } from '../db/client.js';
import { openEmbeddedPostgres } from '../db/embedded.js';
import { migrateDatabase } from '../db/migrate.js';
import { AppError } from '../lib/errors.js';
import { resolveSecrets } from '../lib/secrets.js';
import { createUsersService, generatePassword } from '../modules/users/users.service.js';

const USAGE = `Manage staff accounts.

  npm run users -- add <username> [--role owner|manager|cashier] [--password <password>]
  npm run users -- passwd <username> [--password <password>]
  npm run users -- disable <username>
  npm run users -- list

A new account is a cashier unless --role says otherwise.
Without --password a random one is generated and printed once.
Passwords are 8 to 15 characters. Uses DATABASE_URL, or the embedded database in DATA_DIR.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      password: { type: 'string' },
      role: { type: 'string', default: 'cashier' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const role = ROLES.find((known) => known === values.role);
  const [command, username] = positionals;
  if (values.help || !command || (command !== 'list' && !username) || !role) {
    if (!role) console.error(`--role must be one of ${ROLES.join(', ')}.`);
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }

  const config = loadConfig();
  const log = pino({ level: 'warn' });
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
  const database = connectDatabase(config.databaseUrl ?? embedded!.url, { max: 2 });
  try {
    await migrateDatabase(database.db);
    const users = createUsersService({ db: database.db });
    const password = values.password ?? generatePassword();
    switch (command) {
      case 'add':
        await users.addUser(null, username!, password, role);
        console.log(
          `Added "${username}" (${role}).${values.password ? '' : ` Password: ${password}`}`,
        );
        break;
      case 'passwd':
        await users.setPassword(null, username!, password);
        console.log(
          `Password of "${username}" changed; their sessions have ended.${values.password ? '' : ` New password: ${password}`}`,
        );
        break;
      case 'disable':
        await users.disableUser(null, username!);
        console.log(`Disabled "${username}"; their sessions have ended.`);
        break;
      case 'list':
        for (const user of await users.listUsers()) {
          console.log(
            `${user.username.padEnd(30)} ${user.role.padEnd(8)} ${user.disabledAt ? 'disabled' : 'active  '} since ${user.createdAt.toISOString().slice(0, 10)}`,
          );
        }
        break;
      default:
        console.log(USAGE);
        process.exitCode = 2;
    }
  } catch (error) {
    console.error(error instanceof AppError ? error.message : error);
    process.exitCode = 1;
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

void main();
