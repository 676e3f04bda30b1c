import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  API_PREFIX,
  MESSAGES,
  SHOP_SETTINGS_MESSAGES,
  todayIn,
  type Branding,
  type ShopSettings,
} from '@kanak/contract';
import {
  addUser,
  appOnDatabase,
  authed,
  createTestContext,
  login,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { SETTINGS_CACHE_MS } from './settings.service.js';

/**
 * The shop's settings from the browser: the owner's alone, checked (the GSTIN by its check
 * digit, the logo by its bytes), audited, idempotent; the environment's values written at the
 * first start only; every instance on the database showing a change within 5 s, on the
 * sign-in page's branding and in the notices' {shop}.
 */

const M = SHOP_SETTINGS_MESSAGES;
const FIRST_ENV = {
  COMPANY_NAME: 'Lakshmi Gold House',
  COMPANY_TAGLINE: 'Since 1950',
  COMPANY_GSTIN: '27AAPFU0939F1ZV',
  SUPPORT_PHONE: '+91 22 4000 1000',
  POWERED_BY: 'Kanak Technologies',
};
const url = (path: string) => `${API_PREFIX}${path}`;
const SETTINGS = url(API_PATHS.shopSettings);
const LOGO = url(API_PATHS.uploadShopLogo);
const BRANDING = url(API_PATHS.branding);

/** A real 1×1 PNG: the server judges images by their bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** The same PNG declaring 3000 × 1 pixels in its header. */
const WIDE_PNG = Buffer.from(PNG);
WIDE_PNG.writeUInt32BE(3000, 16);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const form = (changes: Partial<ShopSettings> = {}) => ({
  companyName: 'Lakshmi Gold House',
  tagline: 'Since 1950',
  gstin: '27AAPFU0939F1ZV',
  supportPhone: '+91 22 4000 1000',
  poweredBy: 'Kanak Technologies',
  ...changes,
});

/** A multipart body with one file, as a browser's FormData sends it. */
async function multipart(bytes: Buffer, name: string, type: string) {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const request = new Request('http://kanak.test/', { method: 'POST', body });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

let ctx: TestContext;
let owner: string;

const as = (token: string, options: InjectOptions & { idempotencyKey?: string }) =>
  ctx.app.inject(authed(token, options));
const put = (body: unknown, idempotencyKey?: string, token = owner) =>
  as(token, { method: 'PUT', url: SETTINGS, payload: body as object, idempotencyKey });
const upload = async (bytes: Buffer, name = 'logo.png', type = 'image/png', token = owner) =>
  as(token, { method: 'POST', url: LOGO, ...(await multipart(bytes, name, type)) });
const branding = async (app: FastifyInstance = ctx.app) =>
  (await app.inject({ method: 'GET', url: BRANDING })).json<{ data: Branding }>().data;
const current = async () =>
  (await as(owner, { method: 'GET', url: SETTINGS })).json<{ data: ShopSettings }>().data;
const auditRows = (action: string) =>
  ctx.sql<{ user_id: number; detail: { before: unknown; after: unknown } }>(
    `SELECT user_id, detail FROM audit_log WHERE action = $1 ORDER BY id`,
    [action],
  );

beforeAll(async () => {
  ctx = await createTestContext(FIRST_ENV);
  await addUser(ctx, 'asha', 'Asha@1928x', 'owner');
  owner = await login(ctx, 'asha', 'Asha@1928x');
});
afterAll(() => ctx.close());

describe('the first start', () => {
  it('writes the environment’s values, which the screen and the sign-in page show', async () => {
    expect(await current()).toEqual({ ...form(), logoUrl: null });
    expect(await branding()).toMatchObject({
      companyName: 'Lakshmi Gold House',
      companyTagline: 'Since 1950',
      gstin: '27AAPFU0939F1ZV',
      supportPhone: '+91 22 4000 1000',
    });
    expect((await branding()).logoUrl).toBeUndefined();
  });

  it('is the only start that does: another start with other values leaves them be', async () => {
    const second = await appOnDatabase(ctx.database, {
      COMPANY_NAME: 'Another Name Entirely',
      COMPANY_GSTIN: '29AAGCB7383J1Z4',
    });
    try {
      expect(await branding(second)).toMatchObject({
        companyName: 'Lakshmi Gold House',
        gstin: '27AAPFU0939F1ZV',
      });
    } finally {
      await second.close();
    }
    const [row] = await ctx.sql<{ company_name: string; gstin: string }>(
      'SELECT company_name, gstin FROM shop_settings',
    );
    expect(row).toEqual({ company_name: 'Lakshmi Gold House', gstin: '27AAPFU0939F1ZV' });
  });
});

describe('who may', () => {
  it('refuses a manager and a cashier every call, reading and changing (403)', async () => {
    for (const role of ['manager', 'cashier'] as const) {
      const { token } = await staffSession(ctx, `${role}-settings`, role);
      const calls = [
        await as(token, { method: 'GET', url: SETTINGS }),
        await put(form({ companyName: 'Not Theirs' }), undefined, token),
        await upload(PNG, 'logo.png', 'image/png', token),
        await as(token, { method: 'DELETE', url: LOGO }),
      ];
      for (const response of calls) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json().message).toBe(MESSAGES.notAllowed);
      }
    }
    expect((await current()).companyName).toBe('Lakshmi Gold House');
    expect(await auditRows('shop.save')).toEqual([]);
  });
});

describe('the owner’s changes', () => {
  it('refuses a GSTIN whose check digit does not match, or of the wrong shape, saying which', async () => {
    const typo = await put(form({ gstin: '27AAPFU0939F1ZA' }));
    expect(typo.statusCode).toBe(400);
    expect(typo.json().message).toBe(M.gstinCheckDigit);
    const short = await put(form({ gstin: '27AAPFU0939F1Z' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe(M.gstinFormat);
    const empty = await put(form({ companyName: '  ' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(M.companyNameRequired);
    expect((await current()).gstin).toBe('27AAPFU0939F1ZV');
    expect(await auditRows('shop.save')).toEqual([]);
  });

  it('saves, audits the fields changed, and a repeat of the request changes nothing more', async () => {
    const key = crypto.randomUUID();
    const changes = form({ companyName: 'Lakshmi Jewellers', gstin: ' 29aagcb7383j1z4 ' });
    const saved = await put(changes, key);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: M.saved,
      data: { companyName: 'Lakshmi Jewellers', gstin: '29AAGCB7383J1Z4', tagline: 'Since 1950' },
    });
    const again = await put(changes, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await put(form({ companyName: 'Other' }), key)).statusCode).toBe(409);

    const rows = await auditRows('shop.save');
    expect(rows).toHaveLength(1);
    // The GSTIN holds a PAN: the audit trail says it changed, not what it holds.
    expect(rows[0]!.detail).toEqual({
      before: { companyName: 'Lakshmi Gold House', gstin: '(hidden)' },
      after: { companyName: 'Lakshmi Jewellers', gstin: '(hidden)' },
    });
    expect(await branding()).toMatchObject({
      companyName: 'Lakshmi Jewellers',
      gstin: '29AAGCB7383J1Z4',
    });
  });

  it('takes an empty GSTIN for a shop without one: receipts and the branding then carry none', async () => {
    expect((await put(form({ companyName: 'Lakshmi Jewellers', gstin: '' }))).statusCode).toBe(200);
    expect((await current()).gstin).toBe('');
    expect((await branding()).gstin).toBeUndefined();
  });

  it("puts the new name in a notice's {shop}", async () => {
    const today = todayIn('Asia/Kolkata', new Date());
    const saved = await as(owner, {
      method: 'POST',
      url: url(API_PATHS.saveCustomer),
      payload: { formData: { custid: null, mobileno: '9811177001', custname: 'Kavya Rao' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const credit = await as(owner, {
      method: 'POST',
      url: url(API_PATHS.updatePoints),
      payload: { formData: { MOBILENO: '9811177001', POINTS: 50, INVDATE: today, CASHCR: 'CR' } },
    });
    expect(credit.statusCode, credit.body).toBe(200);
    const [notice] = await ctx.sql<{ text: string }>(
      `SELECT text FROM notices WHERE mobile = '9811177001' ORDER BY id DESC LIMIT 1`,
    );
    expect(notice!.text).toContain('at Lakshmi Jewellers.');
  });
});

describe('the logo', () => {
  it('refuses an SVG dressed as a PNG, a GIF, a file that is no image, too large a file or picture; nothing changes', async () => {
    const cases: [Buffer, string, string, number, string][] = [
      [SVG, 'logo.png', 'image/png', 415, M.logoFormat],
      [GIF, 'logo.gif', 'image/gif', 415, M.logoFormat],
      [Buffer.from('%PDF-1.4 not a logo'), 'logo.jpg', 'image/jpeg', 415, M.logoFormat],
      [
        Buffer.concat([PNG, Buffer.alloc(300 * 1024)]),
        'big.png',
        'image/png',
        413,
        M.logoTooLarge(256),
      ],
      [WIDE_PNG, 'wide.png', 'image/png', 413, M.logoTooManyPixels(2000, 2000)],
    ];
    for (const [bytes, name, type, status, message] of cases) {
      const response = await upload(bytes, name, type);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(status);
      expect(response.json().message).toBe(message);
    }
    expect((await current()).logoUrl).toBeNull();
    expect(await auditRows('shop.logo')).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: url(API_PATHS.shopLogo) })).statusCode).toBe(
      404,
    );
  });

  it('takes a PNG: served to everyone at its own address, shown in the branding, audited; then removed', async () => {
    const saved = await upload(PNG);
    expect(saved.statusCode, saved.body).toBe(200);
    const logoUrl = saved.json<{ data: ShopSettings }>().data.logoUrl!;
    expect(logoUrl).toMatch(/^\/api\/app\/logo\?v=[0-9a-f]{16}$/);
    expect((await branding()).logoUrl).toBe(logoUrl);

    const served = await ctx.app.inject({ method: 'GET', url: logoUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const etag = served.headers.etag as string;
    const unchanged = await ctx.app.inject({
      method: 'GET',
      url: logoUrl,
      headers: { 'if-none-match': etag },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(await auditRows('shop.logo')).toHaveLength(1);

    const removed = await as(owner, { method: 'DELETE', url: LOGO });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.logoUrl).toBeNull();
    expect((await branding()).logoUrl).toBeUndefined();
    expect((await ctx.app.inject({ method: 'GET', url: logoUrl })).statusCode).toBe(404);
    expect(await auditRows('shop.logoRemove')).toHaveLength(1);
    const again = await as(owner, { method: 'DELETE', url: LOGO });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(M.noLogo);
  });
});

describe('several instances on one database', () => {
  it('each shows a change made on another within 5 s', async () => {
    const other = await appOnDatabase(ctx.database, FIRST_ENV);
    try {
      // The other instance has read (and keeps) the settings as they were.
      expect((await branding(other)).companyName).toBe('Lakshmi Jewellers');
      expect((await put(form({ companyName: 'Lakshmi Jewellers & Sons' }))).statusCode).toBe(200);
      // Where the change was made, at once.
      expect((await branding()).companyName).toBe('Lakshmi Jewellers & Sons');
      const changedAt = performance.now();
      let seenAfter = Infinity;
      while (performance.now() - changedAt < 6_000) {
        if ((await branding(other)).companyName === 'Lakshmi Jewellers & Sons') {
          seenAfter = performance.now() - changedAt;
          break;
        }
        await sleep(50);
      }
      expect(seenAfter).toBeLessThanOrEqual(5_000);
      expect(seenAfter).toBeLessThanOrEqual(SETTINGS_CACHE_MS + 1_000);
    } finally {
      await other.close();
    }
  });
});
