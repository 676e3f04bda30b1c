import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'kanak-web-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Kanak</title>');
  await writeFile(path.join(dist, 'assets', 'app-1a2b.js'), 'console.log(1)');
  ctx = await createTestContext({ WEB_DIST: dist });
});
afterAll(() => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('the built web app', () => {
  it('serves the app shell at / and for client routes, never cached', async () => {
    for (const url of ['/', '/home', '/home/statement?x=1']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves fingerprinted assets as immutable', async () => {
    const response = await get('/assets/app-1a2b.js');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(1)');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('answers a missing file with 404, not the app shell', async () => {
    const response = await get('/assets/gone-9z9z.js');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
  });

  it('sends the security headers with a CSP', async () => {
    const response = await get('/');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBeDefined();
  });
});
