import { sql } from 'drizzle-orm';
import { check, integer, pgTable, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * The messaging panel's configuration: one row (id 1). The token is sealed with DATA_KEY; so
 * are the official panel's (Panel 4) app secret and webhook verify token, the one shown again
 * to be copied into Meta's dashboard.
 */
export const panelConfig = pgTable(
  'panel_config',
  {
    id: smallint('id').primaryKey(),
    instanceId: text('instance_id').notNull(),
    /** AES-256-GCM with DATA_KEY. */
    tokenSealed: text('token_sealed').notNull(),
    panel: smallint('panel').notNull(),
    phone: varchar('phone', { length: 10 }).notNull(),
    /** Panel 4: the WhatsApp Business Account whose templates the shop sends. */
    businessAccountId: text('business_account_id'),
    /** Panel 4: the app secret Meta signs the webhook's events with; AES-256-GCM. */
    appSecretSealed: text('app_secret_sealed'),
    /** The token Meta's webhook handshake must bring; AES-256-GCM. Kept across saves. */
    webhookVerifyTokenSealed: text('webhook_verify_token_sealed'),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('panel_config_single_row_check', sql`${t.id} = 1`),
    check('panel_config_panel_check', sql`${t.panel} BETWEEN 1 AND 4`),
    check(
      'panel_config_official_check',
      sql`${t.panel} <> 4 OR (${t.businessAccountId} IS NOT NULL AND ${t.appSecretSealed} IS NOT NULL AND ${t.webhookVerifyTokenSealed} IS NOT NULL)`,
    ),
  ],
);
