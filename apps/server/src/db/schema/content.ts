import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

/** PostgreSQL `bytea`, read and written as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The mobile app's images (banner, card = e-catalogue), kept in the database so that every
 * instance serves them and backups hold them. `storage_key` is the record's PATH: an opaque
 * key, never a file-system path. At most 5 per type, counted under a per-type lock.
 */
export const appImages = pgTable(
  'app_images',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    mime: text('mime').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('app_images_type_idx').on(t.type, t.id),
    check('app_images_type_check', sql`${t.type} IN ('banner', 'card')`),
    check(
      'app_images_mime_check',
      sql`${t.mime} IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')`,
    ),
    check('app_images_size_check', sql`${t.sizeBytes} BETWEEN 1 AND 5242880`),
  ],
);
