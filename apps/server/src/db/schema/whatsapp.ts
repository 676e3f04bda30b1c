import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The official panel's message templates as Meta listed them at the last sync: a sync
 * replaces them all. `parameters` is how many distinct `{{n}}` the body has.
 */
export const whatsappTemplates = pgTable(
  'whatsapp_templates',
  {
    name: text('name').notNull(),
    language: text('language').notNull(),
    category: text('category').$type<'MARKETING' | 'UTILITY' | 'AUTHENTICATION'>().notNull(),
    status: text('status').notNull(),
    parameters: smallint('parameters').notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.name, t.language] }),
    check(
      'whatsapp_templates_category_check',
      sql`${t.category} IN ('MARKETING', 'UTILITY', 'AUTHENTICATION')`,
    ),
    check('whatsapp_templates_parameters_check', sql`${t.parameters} >= 0`),
  ],
);
