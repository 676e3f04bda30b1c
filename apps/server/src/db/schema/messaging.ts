import { sql } from 'drizzle-orm';
import { check, integer, pgTable, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** The messaging panel's configuration: one row (id 1). The token is sealed with DATA_KEY. */
export const panelConfig = pgTable(
  'panel_config',
  {
    id: smallint('id').primaryKey(),
    instanceId: text('instance_id').notNull(),
    /** AES-256-GCM with DATA_KEY. */
    tokenSealed: text('token_sealed').notNull(),
    panel: smallint('panel').notNull(),
    phone: varchar('phone', { length: 10 }).notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('panel_config_single_row_check', sql`${t.id} = 1`),
    check('panel_config_panel_check', sql`${t.panel} BETWEEN 1 AND 3`),
  ],
);
