import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Each table has one owning module, and only its owner writes it: another module that needs
 * to change a row is handed the owner's functions as a narrow interface (see app.ts). Read by
 * the source itself: every drizzle `insert(table)`, `update(table)` and `delete(table)`, every
 * `INSERT INTO` / `UPDATE` / `DELETE FROM` / `COPY` in SQL text, and every COPY target handed
 * over as text (`'table (column, …)'`), outside tests and tools. The points ledger's tables are
 * held to their one writer in the tools (cli/) and the benchmark (bench/) too.
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
  whatsapp_templates: 'modules/whatsapp',
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
  shop_settings: 'modules/settings',
};

/**
 * The points ledger's tables written elsewhere than the ledger. The demo and benchmark data are
 * loaded through the ledger's bulk path; what remains is the benchmark's own: taking back what
 * its runs wrote, and the raw SQL it measures the API against. Each entry is a file (from the
 * repository's root) and a table; an entry whose write is gone must leave the list with it.
 */
const LEDGER_WRITES_ELSEWHERE = [
  // What the benchmark's runs wrote (credits, due lots, their expiry), deleted after a run so
  // that every run measures the same data: the ledger never deletes a row.
  'bench/take-back.ts writes points_accounts',
  'bench/take-back.ts writes points_entries',
  'bench/take-back.ts writes points_lots',
  'bench/take-back.ts writes points_lot_takes',
  // The raw-SQL baselines the API's sale and credit are measured against.
  'bench/scenarios.ts writes points_accounts',
  'bench/scenarios.ts writes points_entries',
  'bench/scenarios.ts writes points_lots',
];

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repository = path.resolve(src, '../../..');

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

/** The tables the points ledger alone writes. */
const LEDGER = 'modules/points/points.ledger.ts';
const ledgerTables = Object.keys(OWNERS).filter((table) => OWNERS[table] === LEDGER);

/**
 * Where the ledger's tables are written by anything but the ledger: each file (named from the
 * repository's root) and table, with the lines.
 */
function ledgerWritesElsewhere(
  files: { where: string; text: string }[],
  tables: Map<string, string>,
) {
  const found = new Map<string, string[]>();
  for (const { where, text } of files) {
    if (where === `apps/server/src/${LEDGER}`) continue;
    for (const { table, line } of writesIn(text, tables)) {
      if (!ledgerTables.includes(table)) continue;
      const write = `${where} writes ${table}`;
      found.set(write, [...(found.get(write) ?? []), line]);
    }
  }
  return found;
}

/** The server's code with its tools (cli/), and the benchmark's, outside tests. */
async function codeWithTools() {
  const server = (await readdir(src, { withFileTypes: true, recursive: true }))
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'),
    )
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !/^(faults|test)[/\\]/.test(path.relative(src, file)));
  const bench = (await readdir(path.join(repository, 'bench')))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(repository, 'bench', name));
  return Promise.all(
    [...server, ...bench].map(async (file) => ({
      where: path.relative(repository, file).split(path.sep).join('/'),
      text: await readFile(file, 'utf8'),
    })),
  );
}

/** Every table a file writes, with the line that writes it. */
function writesIn(text: string, tables: Map<string, string>) {
  const writes: { table: string; line: string }[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    for (const [, variable] of line.matchAll(/\.(?:insert|update|delete)\((\w+)\)/g)) {
      const table = tables.get(variable!);
      if (table) writes.push({ table, line: `${index + 1}: ${line.trim()}` });
    }
    // SQL text, and a COPY target handed to a helper as text: a table and its column list.
    for (const [, inSql, copied] of line.matchAll(
      /\b(?:INSERT INTO|UPDATE|DELETE FROM|COPY)\s+(\w+)|['"`](\w+) \((?:\w+, )*\w+\)/g,
    )) {
      const table = inSql ?? copied!;
      if ([...tables.values()].includes(table))
        writes.push({ table, line: `${index + 1}: ${line.trim()}` });
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

  it("lets only the ledger write the ledger's tables, in the tools and the benchmark too", async () => {
    const tables = await tablesByVariable();
    const found = ledgerWritesElsewhere(await codeWithTools(), tables);
    const listed = new Set(LEDGER_WRITES_ELSEWHERE);
    const unlisted = [...found]
      .filter(([write]) => !listed.has(write))
      .map(([write, lines]) => `${write}, lines ${lines.join(' | ')}`);
    expect(unlisted).toEqual([]);
    // A listed write that is gone leaves the list.
    expect(LEDGER_WRITES_ELSEWHERE.filter((write) => !found.has(write))).toEqual([]);
  });

  it('sees a write of the ledger’s tables, by drizzle, SQL or COPY', async () => {
    const tables = await tablesByVariable();
    expect(ledgerTables.toSorted()).toEqual([
      'points_accounts',
      'points_entries',
      'points_entry_history',
      'points_lot_takes',
      'points_lots',
    ]);
    const probe = [
      'await tx.insert(pointsEntryHistory).values(row);',
      "await client.query('UPDATE points_accounts SET balance = 0');",
      "await copy(client, 'points_lots (id, customer_id, points)', rows);",
      'await client.query(`COPY points_entries FROM STDIN`);',
      // The tables around the ledger are not its own.
      "await client.query('INSERT INTO customers (mobileno) VALUES ($1)');",
    ].join('\n');
    const elsewhere = ledgerWritesElsewhere([{ where: 'bench/probe.ts', text: probe }], tables);
    expect([...elsewhere.keys()].toSorted()).toEqual([
      'bench/probe.ts writes points_accounts',
      'bench/probe.ts writes points_entries',
      'bench/probe.ts writes points_entry_history',
      'bench/probe.ts writes points_lots',
    ]);
    // The ledger itself may.
    expect(
      ledgerWritesElsewhere([{ where: `apps/server/src/${LEDGER}`, text: probe }], tables).size,
    ).toBe(0);
  });
});
