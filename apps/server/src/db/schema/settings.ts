import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** PostgreSQL `bytea`, read and written as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The shop's own settings: what the sign-in page, printouts, receipts, the portal and the
 * notices call it, and its logo. One row, written at the first start from the environment
 * (COMPANY_NAME and the rest) and from then on only by the owner; an empty text is one the
 * shop does without (a shop without a GSTIN). The logo is kept here, as the app's images are,
 * so that every instance serves it and backups hold it.
 */
export const shopSettings = pgTable(
  'shop_settings',
  {
    id: smallint('id').primaryKey(),
    companyName: text('company_name').notNull(),
    tagline: text('tagline').notNull(),
    gstin: text('gstin').notNull(),
    supportPhone: text('support_phone').notNull(),
    poweredBy: text('powered_by').notNull(),
    logo: bytea('logo'),
    logoMime: text('logo_mime'),
    logoSha256: text('logo_sha256'),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('shop_settings_one_row_check', sql`${t.id} = 1`),
    check(
      'shop_settings_logo_check',
      sql`(${t.logo} IS NULL AND ${t.logoMime} IS NULL AND ${t.logoSha256} IS NULL)
        OR (${t.logoMime} IN ('image/png', 'image/jpeg') AND ${t.logoSha256} IS NOT NULL
            AND octet_length(${t.logo}) BETWEEN 1 AND 262144)`,
    ),
  ],
);
