import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The sign-in page's JavaScript stays within its budget (180 KB gzip): the page's chunks are
 * summed as apps/web/scripts/login-js-size.mjs sums them, in the build `npm test` made first
 * (KANAK_WEB_BUILT), else in a build of the web app into a scratch folder. A static import of a
 * screen's code into the first page fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Builds the web app as `npm run build` does, into a scratch folder. */
function buildInScratch(): string {
  const outDir = mkdtempSync(path.join(tmpdir(), 'kanak-web-build-'));
  scratch.push(outDir);
  const build = spawnSync(
    process.execPath,
    [
      path.join(root, 'apps/web/node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
    // Vitest sets NODE_ENV=test, which would build React's development code.
    {
      cwd: path.join(root, 'apps/web'),
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  expect(build.status, build.stderr).toBe(0);
  return outDir;
}

describe('the sign-in page', () => {
  it('loads at most 180 KB of gzipped JavaScript', () => {
    const outDir = process.env.KANAK_WEB_BUILT ?? buildInScratch();
    const size = spawnSync(
      process.execPath,
      [path.join(root, 'apps/web/scripts/login-js-size.mjs'), outDir],
      { encoding: 'utf8' },
    );
    const total = /([\d.]+) KB {2}gzip in total/.exec(size.stdout)?.[1];
    expect(total, size.stdout + size.stderr).toBeDefined();
    expect(Number(total)).toBeLessThanOrEqual(180);
    expect(size.status).toBe(0);
  });
});
