import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers.js';

/**
 * The customers' portal at /my: its own shell for its client routes, and a policy that lets
 * only its pages load the gateway's checkout script and show the gateway's frames.
 */
let ctx: TestContext;
beforeAll(async () => {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'kanak-web-'));
  await mkdir(path.join(dist, 'assets'));
  await mkdir(path.join(dist, 'my'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Staff</title>');
  await writeFile(path.join(dist, 'my', 'index.html'), '<!doctype html><title>Portal</title>');
  ctx = await createTestContext({
    WEB_DIST: dist,
    RAZORPAY_URL: 'https://api.gateway.example',
    RAZORPAY_CHECKOUT_URL: 'https://checkout.gateway.example/v1/checkout.js',
  });
});
afterAll(() => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const directive = (policy: unknown, name: string) =>
  String(policy)
    .split(';')
    .find((part) => part.startsWith(`${name} `));

describe('the portal’s shell', () => {
  it('answers client routes under /my with the portal, others with the staff app', async () => {
    for (const url of ['/my', '/my/', '/my/points?page=2', '/my/schemes/12/pay', '/MY/consents']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('Portal');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    for (const url of ['/', '/home', '/myself', '/home/my']) {
      expect((await get(url)).body, url).toContain('Staff');
    }
    expect((await get('/my/assets/gone.js')).statusCode).toBe(404);
  });

  it('lets only the portal load the checkout script, show the gateway’s frames and call its API', async () => {
    const portal = (await get('/my/schemes/1/pay')).headers['content-security-policy'];
    expect(directive(portal, 'script-src')).toBe(
      "script-src 'self' https://checkout.gateway.example",
    );
    expect(directive(portal, 'frame-src')).toBe(
      "frame-src 'self' https://checkout.gateway.example https://api.gateway.example",
    );
    expect(directive(portal, 'connect-src')).toBe("connect-src 'self' https://api.gateway.example");
    // The rest of the policy is the staff app's.
    expect(directive(portal, 'frame-ancestors')).toBe("frame-ancestors 'none'");

    const staff = (await get('/home')).headers['content-security-policy'];
    expect(directive(staff, 'script-src')).toBe("script-src 'self'");
    expect(directive(staff, 'frame-src')).toBeUndefined();
    expect(directive(staff, 'connect-src')).toBe("connect-src 'self'");
  });
});
