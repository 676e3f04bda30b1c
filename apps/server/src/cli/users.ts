import { parseArgs } from 'node:util';
import { ROLES } from '@kanak/contract';
import { loadConfig } from '../config.js';
import { migrateDatabase } from '../db/migrate.js';
import { AppError } from '../lib/errors.js';
import { branchesRepo } from '../modules/branches/branches.repo.js';
import { openCliDatabase } from './cli-database.js';
import { generatePassword } from '../modules/users/users.service.js';

const USAGE = `Manage staff accounts.

  npm run users -- add <username> [--role owner|manager|cashier] [--branch <code>] [--password <password>]
  npm run users -- passwd <username> [--password <password>]
  npm run users -- disable <username>
  npm run users -- list

A new account is a cashier unless --role says otherwise, in the shop's first branch unless
--branch names another by its code (the Branches screen lists them).
Without --password a random one is generated and printed once.
Passwords are 8 to 15 characters. Uses DATABASE_URL, or the embedded database in DATA_DIR.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      password: { type: 'string' },
      role: { type: 'string', default: 'cashier' },
      branch: { type: 'string' },
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
  const { database, services, close } = await openCliDatabase(config);
  try {
    await migrateDatabase(database.db);
    const { users } = services;
    const password = values.password ?? generatePassword();
    switch (command) {
      case 'add':
        await users.addUser(null, username!, password, role, values.branch?.toUpperCase());
        console.log(
          `Added "${username}" (${role}${values.branch ? `, ${values.branch.toUpperCase()}` : ''}).${values.password ? '' : ` Password: ${password}`}`,
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
      case 'list': {
        const codes = new Map(
          (await branchesRepo.list(database.db)).map((branch) => [branch.id, branch.code]),
        );
        for (const user of await users.listUsers()) {
          console.log(
            `${user.username.padEnd(30)} ${user.role.padEnd(8)} ${(codes.get(user.branchId) ?? '').padEnd(6)} ${user.disabledAt ? 'disabled' : 'active  '} since ${user.createdAt.toISOString().slice(0, 10)}`,
          );
        }
        break;
      }
      default:
        console.log(USAGE);
        process.exitCode = 2;
    }
  } catch (error) {
    console.error(error instanceof AppError ? error.message : error);
    process.exitCode = 1;
  } finally {
    await close();
  }
}

void main();
