import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository reads alone: a comment or a document states its rule, and never sends the
 * reader to a document that is not in the repository (a section of a specification or design,
 * an issue number).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CITATION = String.raw`(spec|DESIGN)[^a-zA-Z]{0,3}§|§ ?[0-9]|DESIGN\.md|spec\.md|[Ii]ssue #?[0-9]+`;

describe('the repository', () => {
  it('cites no document outside itself', () => {
    let found = '';
    try {
      found = execFileSync(
        'git',
        ['grep', '-nE', CITATION, '--', '.', ':!package-lock.json', ':!apps/server/drizzle/meta'],
        { cwd: root, encoding: 'utf8' },
      );
    } catch (error) {
      // git grep exits 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    const lines = found
      .split('\n')
      .filter((line) => line && !line.startsWith('scripts/checks/stands-alone.test.ts'));
    expect(lines).toEqual([]);
  });
});
