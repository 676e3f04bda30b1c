import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Db } from './client.js';

/** The committed SQL migrations; the same relative path from src/db and dist/db. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export async function migrateDatabase(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** When each migration of this version was generated, oldest first, from drizzle's journal. */
let journal: number[] | undefined;
function migrationTimes(): number[] {
  journal ??= (
    JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    }
  ).entries.map((entry) => entry.when);
  return journal;
}

/**
 * How many of this version's migrations the database lacks, judged as drizzle's migrator judges
 * it: each applied migration is a row of drizzle.__drizzle_migrations stamped with its journal
 * time, and every migration newer than the newest row is still to be applied. A database no
 * migration ever ran on (no such table) lacks them all; a newer version's migrations, already
 * applied by an instance upgraded first, are not this one's concern.
 */
export async function migrationsPending(db: Db): Promise<number> {
  const times = migrationTimes();
  const [table] = (
    await db.execute<{ found: boolean }>(
      sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS found`,
    )
  ).rows;
  if (!table?.found) return times.length;
  const [row] = (
    await db.execute<{ newest: number | null }>(
      sql`SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations`,
    )
  ).rows;
  const newest = row?.newest === null || row?.newest === undefined ? -1 : Number(row.newest);
  return times.filter((when) => when > newest).length;
}
