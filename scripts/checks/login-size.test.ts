import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The sign-in pages' JavaScript stays within its budget: the staff app's (180 KB gzip) and the
 * customers' portal's (120 KB gzip, for a slow phone). Each page's chunks are summed as
 * apps/web/scripts/login-js-size.mjs sums them, in the build `npm test` made first
 * (KANAK_WEB_BUILT), else in a build of the web app into a scratch folder. A static import of a
 * screen's code into a first page fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

let built: string | undefined;

/** Builds the web app as `npm run build` does (the staff app, then the portal), once. */
function buildInScratch(): string {
  if (built) return built;
  const outDir = mkdtempSync(path.join(tmpdir(), 'kanak-web-build-'));
  scratch.push(outDir);
  for (const config of [[], ['--config', 'vite.portal.config.ts']]) {
    const build = spawnSync(
      process.execPath,
      [
        path.join(root, 'apps/web/node_modules/vite/bin/vite.js'),
        'build',
        ...config,
        '--outDir',
        outDir,
        // The portal's build adds to the staff app's.
        ...(config.length === 0 ? ['--emptyOutDir'] : []),
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
  }
  built = outDir;
  return outDir;
}

/** The page's total as the script prints it, and whether it stayed within `limit`. */
function measure(page: string[], limit: number) {
  const outDir = process.env.KANAK_WEB_BUILT ?? buildInScratch();
  const size = spawnSync(
    process.execPath,
    [path.join(root, 'apps/web/scripts/login-js-size.mjs'), outDir, ...page, '--limit', `${limit}`],
    { encoding: 'utf8' },
  );
  const total = /([\d.]+) KB {2}gzip in total/.exec(size.stdout)?.[1];
  expect(total, size.stdout + size.stderr).toBeDefined();
  expect(Number(total)).toBeLessThanOrEqual(limit);
  expect(size.status).toBe(0);
}

describe('the sign-in page', () => {
  it('loads at most 180 KB of gzipped JavaScript', () => {
    measure([], 180);
  });
});

describe('the customers’ portal sign-in page', () => {
  it('loads at most 120 KB of gzipped JavaScript', () => {
    measure(['--page', 'my/index.html', '--chunk', 'SignInPage'], 120);
  });
});
