import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Each table has one owning module, and only its owner writes it: another module that needs
 * to change a row is handed the owner's functions as a narrow interface (see app.ts). Read by
 * the source itself: every drizzle `insert(table)`, `update(table)` and `delete(table)`, and
 * every `INSERT INTO` / `UPDATE` / `DELETE FROM` in SQL text, outside tests and tools.
 */
const OWNERS: Record<string, string> = {
  branches: 'modules/branches',
  users: 'modules/users',
  login_lockouts: 'modules/auth',
  login_address_lockouts: 'modules/auth',
  ended_sessions: 'modules/auth',
  idempotency_keys: 'plugins/idempotency.ts',
  rate_limit_hits: 'plugins/rate-limit-store.ts',
  export_slots: 'lib/export-slots.ts',
  audit_log: 'lib/audit.ts',
  customers: 'modules/customers',
  // The points ledger has one writer: the ledger rows, their edit history, the lots and their
  // takes are written by points.ledger.ts alone, with the balance, in one change.
  points_entries: 'modules/points/points.ledger.ts',
  points_entry_history: 'modules/points/points.ledger.ts',
  // The balance: locked and changed by the ledger alone. Each customer's row is opened by the
  // trigger of its migration, in the statement that adds the customer.
  points_accounts: 'modules/points/points.ledger.ts',
  schemes: 'modules/schemes',
  scheme_installments: 'modules/schemes',
  receipt_counter: 'modules/schemes',
  // Written only by the triggers of the reports migration, in the scheme change's statement.
  schemes_active: 'modules/schemes',
  // Written only by the triggers of its migration, in the scheme change's statement.
  schemes_by_start: 'modules/schemes',
  // Written only by the triggers of the reports migration, in the installment's statement.
  collections_by_day: 'modules/schemes',
  app_images: 'modules/content',
  panel_config: 'modules/messaging',
  export_tickets: 'modules/customers',
  customer_consents: 'modules/customers',
  points_rules: 'modules/points',
  points_lots: 'modules/points/points.ledger.ts',
  points_lot_takes: 'modules/points/points.ledger.ts',
  // Written only by the triggers of the reports migration, in the ledger change's statement.
  points_by_day: 'modules/points',
  // Written only by the triggers of the reports migration, in the lot change's statement.
  points_held: 'modules/points',
  pos_sales: 'modules/points',
  pos_returns: 'modules/points',
  pos_redemptions: 'modules/points',
  counter_redemptions: 'modules/points',
  // The tiers: written under the customer's points account lock, beside the sale that lifts one.
  tier_settings: 'modules/points',
  customer_tiers: 'modules/points',
  api_keys: 'modules/integrations',
  notice_templates: 'modules/notices',
  notices: 'modules/notices',
  gold_rates: 'modules/gold-rates',
  scheme_plans: 'modules/schemes',
  accounting_settings: 'modules/accounting',
  tally_pushed_vouchers: 'modules/accounting',
  razorpay_settlements: 'modules/accounting',
  member_codes: 'modules/members',
  member_sessions: 'modules/members',
  online_orders: 'modules/members',
  online_extra_payments: 'modules/members',
  gateway_events: 'modules/members',
  backups: 'modules/backups',
  backup_tickets: 'modules/backups',
};

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'),
    )
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !/^(cli|faults|test)[/\\]/.test(path.relative(src, file)));
}

/** Each table declared in db/schema/, with its variable and the file that declares it. */
async function declaredTables() {
  const dir = path.join(src, 'db/schema');
  const declared: { variable: string; table: string; file: string }[] = [];
  for (const file of await readdir(dir)) {
    const schema = await readFile(path.join(dir, file), 'utf8');
    for (const [, variable, table] of schema.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g))
      declared.push({ variable: variable!, table: table!, file });
  }
  return declared;
}

/** drizzle's table variables and the tables they name. */
async function tablesByVariable() {
  return new Map((await declaredTables()).map(({ variable, table }) => [variable, table]));
}

/**
 * The db/schema/ file a table belongs in: its owning module's name, the audit trail's own, and
 * one file for the tables of the request machinery in plugins/ and lib/.
 */
function schemaFileOf(owner: string) {
  if (owner === 'lib/audit.ts') return 'audit.ts';
  const module = /^modules\/([\w-]+)/.exec(owner);
  return module ? `${module[1]}.ts` : 'platform.ts';
}

/** Every table a file writes, with the line that writes it. */
function writesIn(text: string, tables: Map<string, string>) {
  const writes: { table: string; line: string }[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    for (const [, variable] of line.matchAll(/\.(?:insert|update|delete)\((\w+)\)/g)) {
      const table = tables.get(variable!);
      if (table) writes.push({ table, line: `${index + 1}: ${line.trim()}` });
    }
    for (const [, table] of line.matchAll(/\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+(\w+)/g)) {
      if ([...tables.values()].includes(table!))
        writes.push({ table: table!, line: `${index + 1}: ${line.trim()}` });
    }
  }
  return writes;
}

describe('table ownership', () => {
  it('names an owner for every table', async () => {
    const tables = [...(await tablesByVariable()).values()];
    expect(tables.filter((table) => !OWNERS[table])).toEqual([]);
    expect(Object.keys(OWNERS).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it("declares each table in its owner's schema file", async () => {
    const misplaced = (await declaredTables())
      .filter(({ table, file }) => OWNERS[table] && file !== schemaFileOf(OWNERS[table]))
      .map(({ table, file }) => `${table} in ${file}, owned by ${OWNERS[table]}`);
    expect(misplaced).toEqual([]);
  });

  it('lets only its owner write a table', async () => {
    const tables = await tablesByVariable();
    const trespasses: string[] = [];
    let writes = 0;
    for (const file of await sourceFiles(src)) {
      const where = path.relative(src, file).split(path.sep).join('/');
      for (const { table, line } of writesIn(await readFile(file, 'utf8'), tables)) {
        writes++;
        if (!where.startsWith(OWNERS[table] ?? '?'))
          trespasses.push(`${where}:${line} writes ${table}`);
      }
    }
    // The scan sees the writes there are: every owner writes its tables somewhere.
    expect(writes).toBeGreaterThan(20);
    expect(trespasses).toEqual([]);
  });

  it("lets only the points ledger change a customer's points balance", async () => {
    // The balance is the customer's points account: only the ledger changes it, beside the
    // ledger row and the lots it changes with.
    const changers = /\b(addToBalances?)\(/g;
    const callers: string[] = [];
    for (const file of await sourceFiles(src)) {
      const where = path.relative(src, file).split(path.sep).join('/');
      const text = await readFile(file, 'utf8');
      for (const [, name] of text.matchAll(changers)) callers.push(`${where} ${name}`);
    }
    expect(callers.length).toBeGreaterThan(0);
    expect(
      callers.filter((caller) => !caller.startsWith('modules/points/points.ledger.ts ')),
    ).toEqual([]);
  });
});
