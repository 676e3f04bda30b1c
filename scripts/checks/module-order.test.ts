import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's modules, lowest first. A module imports only modules before it in this list
 * (`import type` too), never one after it: what a lower module needs from a higher one is
 * handed to it as a narrow interface whose type lives below both (as the notice queue's, in
 * `lib/notice-queue.ts`). A new module takes its place here.
 */
const MODULES_LOWEST_FIRST = [
  'system',
  'audit',
  'backups',
  'content',
  'settings',
  'messaging',
  'branches',
  'users',
  'auth',
  'integrations',
  'customers',
  'whatsapp',
  'points',
  'gold-rates',
  'schemes',
  'import',
  'notices',
  'data-rights',
  'members',
  'counter',
  'reports',
  'accounting',
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const modules = path.join(root, 'apps/server/src/modules');

/** The module a path inside `modules/` belongs to. */
const moduleOf = (file: string) => path.relative(modules, file).split(path.sep)[0]!;

/** Every module another module's file imports, with the file and what it imports. */
async function importsAcross() {
  const found: { from: string; to: string; line: string }[] = [];
  const entries = await readdir(modules, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    // `from '…'` ends every static import and re-export, however many lines it spans.
    for (const [, target] of text.matchAll(/(?:from|import\()\s*'(\.[^']*)'/g)) {
      const to = moduleOf(path.resolve(path.dirname(file), target!));
      const from = moduleOf(file);
      const line = `${path.relative(modules, file)} imports '${target}'`;
      if (to !== from && !to.startsWith('..')) found.push({ from, to, line });
    }
  }
  return found;
}

/** The imports that reach a module at or above the importer's place in `order`. */
function upward(found: Awaited<ReturnType<typeof importsAcross>>, order: string[]) {
  return found
    .filter(({ from, to }) => order.indexOf(to) >= order.indexOf(from))
    .map(({ from, to, line }) => `${from} → ${to}: ${line}`);
}

describe('the server’s modules', () => {
  it('are all placed in the order', async () => {
    const folders = (await readdir(modules, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.toSorted()).toEqual(MODULES_LOWEST_FIRST.toSorted());
  });

  it('import only modules below them', async () => {
    const found = await importsAcross();
    // The scan sees the imports there are: the points and schemes services use the customers'.
    expect(found.some(({ from, to }) => from === 'points' && to === 'customers')).toBe(true);
    expect(upward(found, MODULES_LOWEST_FIRST)).toEqual([]);
    // And it bites: with customers placed at the top, its importers are reported.
    const customersLast = [...MODULES_LOWEST_FIRST.filter((m) => m !== 'customers'), 'customers'];
    expect(upward(found, customersLast)).toContainEqual(
      expect.stringMatching(/^points → customers/),
    );
  });
});
