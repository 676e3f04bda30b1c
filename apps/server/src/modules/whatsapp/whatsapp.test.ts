import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WHATSAPP_MESSAGES } from '@kanak/contract';
import { authed, signedIn, staffSession, type SignedIn } from '../../../test/helpers.js';
import { startFakeGraph, type FakeGraph, type FakeTemplate } from '../../../test/fake-graph.js';

let ctx: SignedIn;
let graph: FakeGraph;
/** A second Graph API on another address: a page's link there must not be followed. */
let elsewhere: FakeGraph;

beforeAll(async () => {
  graph = await startFakeGraph();
  elsewhere = await startFakeGraph();
  ctx = await signedIn('owner', {
    username: 'nandini',
    env: { WHATSAPP_GRAPH_URL: graph.url, WHATSAPP_GRAPH_VERSION: 'v25.0' },
  });
});
afterAll(async () => {
  await ctx.close();
  await graph.close();
  await elsewhere.close();
});
beforeEach(() => {
  graph.reset();
  elsewhere.reset();
});

const body = (text: string) => ({ type: 'BODY', text });
const template = (name: string, text: string, extra: Partial<FakeTemplate> = {}): FakeTemplate => ({
  name,
  language: 'en',
  category: 'UTILITY',
  status: 'APPROVED',
  components: [body(text)],
  ...extra,
});

/** Seven templates, three pages of three: numbered, repeated and named placeholders. */
const SEVEN: FakeTemplate[] = [
  template('points_adjusted', 'Dear {{1}}, {{2}} points. Balance {{3}} worth {{4}}. {{5}}', {
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
      body('Dear {{1}}, {{2}} points. Balance {{3}} worth {{4}}. {{5}}'),
      { type: 'FOOTER', text: 'Reply STOP to stop' },
    ],
  }),
  template('points_adjusted', 'प्रिय {{1}}, {{2}} अंक, शेष {{3}} ({{4}}) — {{5}}', {
    language: 'hi',
  }),
  template('installment_received', 'Hi {{1}}, we got {{2}}. Thank you, {{1}}!'),
  template('sign_in_code', '{{1}} is your code.', { category: 'AUTHENTICATION' }),
  template('diwali_offer', 'Happy Diwali from {{shop_name}}, {{customer}}!', {
    category: 'MARKETING',
    status: 'PENDING',
  }),
  template('plain_hello', 'Namaste from the shop.', { category: 'MARKETING', status: 'REJECTED' }),
  // A category Meta no longer uses: not one Kanak sends.
  template('old_receipt', 'Receipt {{1}}', { category: 'TRANSACTIONAL' }),
];

const sync = () => ctx.post('/api/whatsapp/templates/sync', {});
const listed = async () => {
  const response = await ctx.inject({ method: 'GET', url: '/api/whatsapp/templates' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: unknown[] }>().data;
};
const heldSnapshot = async () => ({
  rows: await ctx.sql(`SELECT * FROM whatsapp_templates ORDER BY name, language`),
  audits: await ctx.sql(`SELECT id FROM audit_log WHERE action = 'whatsapp.templatesSync'`),
});

describe('templates before Panel 4 is set up', () => {
  it('lists none, and a sync says to set Panel 4 up first', async () => {
    expect(await listed()).toEqual([]);
    const response = await sync();
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(WHATSAPP_MESSAGES.notSetUp);
    expect(graph.calls).toEqual([]);
  });
});

describe('POST /api/whatsapp/templates/sync', () => {
  beforeAll(async () => {
    const saved = await ctx.post('/api/social/panel-setup', {
      formData: {
        panel: 4,
        phone: '9876543210',
        instanceid: graph.phoneNumberId,
        token: graph.accessToken,
        businessAccountId: graph.businessAccountId,
        appSecret: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('reads every page with the bearer token and keeps each template with its body’s parameter count', async () => {
    graph.templates = SEVEN;
    graph.pageSize = 3;
    const response = await sync();
    expect(response.statusCode, response.body).toBe(200);
    const expected = [
      {
        name: 'diwali_offer',
        language: 'en',
        category: 'MARKETING',
        status: 'PENDING',
        parameters: 2,
      },
      {
        name: 'installment_received',
        language: 'en',
        category: 'UTILITY',
        status: 'APPROVED',
        parameters: 2,
      },
      {
        name: 'plain_hello',
        language: 'en',
        category: 'MARKETING',
        status: 'REJECTED',
        parameters: 0,
      },
      {
        name: 'points_adjusted',
        language: 'en',
        category: 'UTILITY',
        status: 'APPROVED',
        parameters: 5,
      },
      {
        name: 'points_adjusted',
        language: 'hi',
        category: 'UTILITY',
        status: 'APPROVED',
        parameters: 5,
      },
      {
        name: 'sign_in_code',
        language: 'en',
        category: 'AUTHENTICATION',
        status: 'APPROVED',
        parameters: 1,
      },
    ];
    expect(response.json()).toEqual({
      success: true,
      message: WHATSAPP_MESSAGES.templatesSynced(6),
      data: expected,
    });
    expect(await listed()).toEqual(expected);
    // Three pages, the second and third by the cursor the one before gave.
    expect(graph.calls.map((call) => call.status)).toEqual([200, 200, 200]);
    expect(graph.calls[0]!.call).toMatch(
      new RegExp(`^GET /v25\\.0/${graph.businessAccountId}/message_templates\\?fields=`),
    );
    expect(graph.calls[1]!.call).toContain('after=');
    expect(graph.calls[2]!.call).toContain('after=');
    const [audit] = await ctx.sql<{ detail: { after: unknown } }>(
      `SELECT detail FROM audit_log WHERE action = 'whatsapp.templatesSync'`,
    );
    expect(audit!.detail.after).toEqual({ templates: 6 });
  });

  it('replaces the templates held with what Meta lists now', async () => {
    graph.templates = [template('installment_received', 'Got {{1}}', { status: 'PAUSED' })];
    const response = await sync();
    expect(response.statusCode, response.body).toBe(200);
    expect(await listed()).toEqual([
      {
        name: 'installment_received',
        language: 'en',
        category: 'UTILITY',
        status: 'PAUSED',
        parameters: 1,
      },
    ]);
  });

  it('waits out Meta’s rate limit and carries on', async () => {
    graph.templates = SEVEN;
    graph.pageSize = 3;
    graph.throttle(1);
    const started = Date.now();
    const response = await sync();
    expect(response.statusCode, response.body).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(graph.calls.map((call) => call.status)).toEqual([429, 200, 200, 200]);
    expect(await listed()).toHaveLength(6);
  });

  it('gives up after a few tries when Meta stays busy, and changes nothing', async () => {
    graph.templates = [template('something_else', 'Hi')];
    graph.throttle(100, '0');
    const before = await heldSnapshot();
    const response = await sync();
    expect(response.statusCode).toBe(429);
    expect(response.json().message).toBe(WHATSAPP_MESSAGES.busy);
    expect(graph.calls).toHaveLength(4);
    expect(await heldSnapshot()).toEqual(before);
  });

  it('says clearly when Meta refuses the access token (190), and changes nothing', async () => {
    graph.templates = [template('something_else', 'Hi')];
    graph.tokenInvalid = true;
    const before = await heldSnapshot();
    const response = await sync();
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(WHATSAPP_MESSAGES.tokenInvalid);
    expect(response.body).not.toContain(graph.accessToken);
    expect(graph.calls).toHaveLength(1);
    expect(await heldSnapshot()).toEqual(before);
  });

  it('follows no page link to another address: the token never goes there', async () => {
    graph.templates = SEVEN;
    graph.pageSize = 3;
    graph.nextOrigin = elsewhere.url;
    const before = await heldSnapshot();
    const response = await sync();
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe(WHATSAPP_MESSAGES.unreadable);
    expect(graph.calls).toHaveLength(1);
    expect(elsewhere.calls).toEqual([]);
    expect(await heldSnapshot()).toEqual(before);
  });

  it('is the owner’s alone: a manager and a cashier are refused', async () => {
    const before = await heldSnapshot();
    for (const role of ['manager', 'cashier'] as const) {
      const { token } = await staffSession(ctx, `${role}-wa`, role);
      const list = await ctx.app.inject(
        authed(token, { method: 'GET', url: '/api/whatsapp/templates' }),
      );
      expect(list.statusCode).toBe(403);
      const syncing = await ctx.app.inject(
        authed(token, { method: 'POST', url: '/api/whatsapp/templates/sync', payload: {} }),
      );
      expect(syncing.statusCode).toBe(403);
    }
    expect(graph.calls).toEqual([]);
    expect(await heldSnapshot()).toEqual(before);
  });
});
