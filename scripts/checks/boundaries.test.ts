import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rules that keep folders apart: a server module imports another only through its
 * index.ts; nothing below the server's composition root (its root files) imports it, and db/,
 * lib/ and plugins/ import no module, types included; in the web app a feature imports no
 * other feature and not the app shell; shared pieces import no feature; no import cycles. Each
 * rule is tried on a file that breaks it, as if it were in the tree.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });
const web = (file: string) => path.join(root, 'apps/web/src', file);

const server = (file: string) => path.join(root, 'apps/server/src', file);

async function problems(file: string, code: string, where = web) {
  const [result] = await eslint.lintText(code, { filePath: where(file) });
  return result!.messages.map((message) => message.ruleId);
}

describe('the web app’s boundaries', () => {
  it('refuses a feature importing another feature or the app shell', async () => {
    expect(
      await problems('features/points/Probe.ts', "export { schemeKeys } from '../schemes/api';"),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await problems(
        'features/points/Probe.ts',
        "export { AppRoutes } from '../../app/AppRoutes';",
      ),
    ).toContain('import-x/no-restricted-paths');
    // Its own folder, shared pieces and the contract are fine.
    expect(
      await problems(
        'features/points/Probe.ts',
        "export { pointsKeys } from './api';\nexport { PATHS } from '../../lib/paths';\nexport { MESSAGES } from '@kanak/contract';",
      ),
    ).toEqual([]);
  }, 60_000);

  it('refuses a shared piece importing a feature', async () => {
    expect(
      await problems('components/Probe.ts', "export { pointsKeys } from '../features/points/api';"),
    ).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('keeps the customers’ portal and the staff app apart', async () => {
    // The staff app's client would end a staff session on the customer's 401.
    expect(await problems('portal/Probe.ts', "export { api } from '../lib/api';")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(
      await problems('portal/Probe.ts', "export { LoginPage } from '../features/auth/LoginPage';"),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await problems('features/points/Probe.ts', "export { session } from '../../portal/session';"),
    ).toContain('import-x/no-restricted-paths');
    // The staff app's theme and the contract are the portal's too.
    expect(
      await problems(
        'portal/Probe.ts',
        "export { theme } from '../app/theme';\nexport { PORTAL_TEXTS } from '@kanak/contract';",
      ),
    ).toEqual([]);
  }, 60_000);

  it('refuses an import cycle', async () => {
    // Two files that import each other, written for the check and removed after it.
    const folder = web('lib/cycle-probe');
    await mkdir(folder, { recursive: true });
    try {
      const a = "import { b } from './b';\nexport const a = () => b;\n";
      await writeFile(path.join(folder, 'a.ts'), a);
      await writeFile(
        path.join(folder, 'b.ts'),
        "import { a } from './a';\nexport const b = () => a;\n",
      );
      expect(await problems('lib/cycle-probe/a.ts', a)).toContain('import-x/no-cycle');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the server’s boundaries', () => {
  it('refuses a module importing another module’s inner file, even a type', async () => {
    expect(
      await problems(
        'modules/schemes/probe.ts',
        "export { customersRepo } from '../customers/customers.repo.js';",
        server,
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await problems(
        'modules/schemes/probe.ts',
        "export type { CustomersRepo } from '../customers/customers.repo.js';",
        server,
      ),
    ).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('lets a module import another through its index, and its own files', async () => {
    expect(
      await problems(
        'modules/schemes/probe.ts',
        "export { customersRepo } from '../customers/index.js';\nexport type { CustomersRepo } from '../customers/index.js';\nexport { schemesRepo } from './schemes.repo.js';",
        server,
      ),
    ).toEqual([]);
  }, 60_000);

  it('refuses a module, db/, lib/ or plugins/ importing the composition root, even a type', async () => {
    for (const [file, code] of [
      ['modules/system/probe.ts', "export type { Config } from '../../config.js';"],
      ['modules/points/probe.ts', "export { createServices } from '../../services.js';"],
      ['plugins/probe.ts', "export type { Config } from '../config.js';"],
      ['lib/probe.ts', "export type { AppDeps } from '../app.js';"],
      ['db/schema/probe.ts', "export { JOBS_SCHEMA } from '../../jobs.js';"],
    ])
      expect(await problems(file!, code!, server), file).toContain('import-x/no-restricted-paths');
    // A test builds the whole app around what it tries; the root's own files and the tools'
    // are composition roots too.
    expect(
      await problems(
        'modules/system/probe.test.ts',
        "export { buildApp } from '../../app.js';",
        server,
      ),
    ).toEqual([]);
    expect(
      await problems('cli/probe.ts', "export { loadConfig } from '../config.js';", server),
    ).toEqual([]);
  }, 60_000);

  it('refuses db/, lib/ or plugins/ importing a module, even a type, even its index', async () => {
    for (const [file, code] of [
      ['db/schema/probe.ts', "export { overdueFrom } from '../../modules/schemes/index.js';"],
      ['lib/probe.ts', "export type { SchemesRepo } from '../modules/schemes/index.js';"],
      [
        'plugins/probe.ts',
        "import type { PointsRepo } from '../modules/points/index.js';\nexport type P = PointsRepo;",
      ],
    ])
      expect(await problems(file!, code!, server), file).toContain('import-x/no-restricted-paths');
    // What sits below the modules is theirs to use.
    expect(
      await problems(
        'modules/schemes/probe.ts',
        "export { AppError } from '../../lib/errors.js';\nexport type { Tx } from '../../db/client.js';\nexport type { StaffActor } from '../../plugins/types.js';",
        server,
      ),
    ).toEqual([]);
  }, 60_000);
});
