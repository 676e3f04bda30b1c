import { parseArgs } from 'node:util';
import { apiKeyAddRequest } from '@kanak/contract';
import { loadConfig } from '../config.js';
import { migrateDatabase } from '../db/migrate.js';
import { AppError } from '../lib/errors.js';
import { openCliDatabase } from './cli-database.js';

const USAGE = `Manage the API keys of the counters' billing systems (POS).

  npm run keys -- add "<label>" [--branch <code>]
  npm run keys -- list
  npm run keys -- revoke <id>

A new key is printed once; only its hash is kept. A key may call only /api/pos/*.
Uses DATABASE_URL, or the embedded database in DATA_DIR.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { branch: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, argument] = positionals;
  if (values.help || !command || (command !== 'list' && !argument)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const input =
    command === 'add'
      ? apiKeyAddRequest.safeParse({ label: argument, branch: values.branch })
      : undefined;
  if (input && !input.success) {
    console.error(input.error.issues.map((issue) => issue.message).join(' '));
    process.exit(2);
  }
  const revokeId = command === 'revoke' ? Number(argument) : 0;
  if (command === 'revoke' && !(Number.isSafeInteger(revokeId) && revokeId > 0)) {
    console.error('The key to revoke is given by its number (see "list").');
    process.exit(2);
  }

  const { database, services, close } = await openCliDatabase(loadConfig());
  try {
    await migrateDatabase(database.db);
    const keys = services.apiKeys;
    switch (command) {
      case 'add': {
        const made = await keys.add(null, input!.data!);
        console.log(`Key ${made.id} made. Copy it now, it is not shown again:\n${made.key}`);
        break;
      }
      case 'list':
        for (const key of await keys.list()) {
          console.log(
            [
              String(key.id).padStart(4),
              key.label.padEnd(30),
              (key.branch ?? '-').padEnd(6),
              `${key.prefix}…`,
              key.revokedAt ? `revoked ${key.revokedAt.slice(0, 10)}` : 'active',
              `last use ${key.lastUsedAt?.slice(0, 16) ?? 'never'}`,
            ].join('  '),
          );
        }
        break;
      case 'revoke':
        await keys.revoke(null, revokeId);
        console.log(`Key ${revokeId} revoked.`);
        break;
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
