import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A screen reads in one sitting: no page or component of the web app runs over 250 lines. A
 * longer one is split into parts named for what they show, in the same feature folder.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 250;

const linesOf = (file: string) =>
  readFileSync(path.join(root, file), 'utf8').split('\n').length - 1;

export function overLong(files: string[], count = linesOf) {
  return files
    .map((file) => ({ file, lines: count(file) }))
    .filter(({ lines }) => lines > MAX_LINES);
}

describe('the web app’s screens', () => {
  it(`are each at most ${MAX_LINES} lines`, () => {
    // Tracked files and new ones not ignored: what a commit would hold.
    const screens = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', 'apps/web/src/*.tsx'],
      { cwd: root, encoding: 'utf8' },
    )
      .split('\n')
      .filter((file) => file && !file.endsWith('.test.tsx'));
    expect(screens.length).toBeGreaterThan(50);
    expect(overLong(screens)).toEqual([]);
  });

  it('names a screen that runs over', () => {
    expect(
      overLong(['Long.tsx', 'Short.tsx'], (file) => (file === 'Long.tsx' ? 251 : 250)),
    ).toEqual([{ file: 'Long.tsx', lines: 251 }]);
  });
});
