/**
 * The database's tables, one file per owning module under schema/ (the table-owners test names
 * each table's owner). This index re-exports them all, for queries that read across modules.
 */
export * from './schema/branches.js';
export * from './schema/users.js';
export * from './schema/auth.js';
export * from './schema/platform.js';
export * from './schema/audit.js';
export * from './schema/customers.js';
export * from './schema/points.js';
export * from './schema/schemes.js';
export * from './schema/content.js';
export * from './schema/messaging.js';
export * from './schema/whatsapp.js';
export * from './schema/integrations.js';
export * from './schema/notices.js';
export * from './schema/accounting.js';
export * from './schema/gold-rates.js';
export * from './schema/members.js';
export * from './schema/backups.js';
export * from './schema/settings.js';
