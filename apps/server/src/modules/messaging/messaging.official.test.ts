import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, SECRET_KEPT, WHATSAPP_MESSAGES } from '@kanak/contract';
import { createFieldCipher } from '../../lib/crypto.js';
import {
  authed,
  signedIn,
  staffSession,
  TEST_SECRETS,
  type SignedIn,
} from '../../../test/helpers.js';

let ctx: SignedIn;
const cipher = createFieldCipher(TEST_SECRETS.dataKey);

beforeAll(async () => {
  ctx = await signedIn('owner', { username: 'zoya' });
});
afterAll(() => ctx.close());

const OFFICIAL = {
  panel: 4,
  phone: '9876543210',
  instanceid: '106540352242922',
  token: `EAAG${'x7Kq'.repeat(60)}`,
  businessAccountId: '102290129340398',
  appSecret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
};

const setup = (formData: unknown, idempotencyKey?: string) =>
  ctx.post('/api/social/panel-setup', { formData }, idempotencyKey);
const getConfig = () => ctx.inject({ method: 'GET', url: '/api/social/get-panel-config' });

interface Row {
  instance_id: string;
  token_sealed: string;
  panel: number;
  business_account_id: string | null;
  app_secret_sealed: string | null;
  webhook_verify_token_sealed: string | null;
}
const storedRow = async () => (await ctx.sql<Row>(`SELECT * FROM panel_config`))[0];
/** Everything the database holds that a leak could hide in, as text. */
const everything = async () =>
  JSON.stringify([
    await ctx.sql(`SELECT * FROM panel_config`),
    await ctx.sql(`SELECT * FROM audit_log`),
    await ctx.sql(`SELECT * FROM idempotency_keys`),
  ]);
const snapshot = async () => ({
  row: await storedRow(),
  audits: await ctx.sql(`SELECT id FROM audit_log WHERE entity = 'panel_config' ORDER BY id`),
});

let verifyToken = '';

describe('Panel 4, WhatsApp Business (official)', () => {
  it('refuses to keep secrets that were never saved, and changes nothing', async () => {
    const before = await snapshot();
    const response = await setup({ ...OFFICIAL, token: SECRET_KEPT, appSecret: SECRET_KEPT });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(WHATSAPP_MESSAGES.secretsFirst);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses what Meta would never give: ids that are not digits, a secret of another shape', async () => {
    const before = await snapshot();
    for (const [change, message] of [
      [{ businessAccountId: 'waba-1' }, 'Business account id must be digits only.'],
      [{ appSecret: 'not-a-secret' }, "App secret must be the app's 32 letters and digits."],
      [{ instanceid: 'instance-1' }, "Instance Id must be the phone number's id: digits only."],
      [
        { token: 'has spaces in it' },
        'Token must be as the provider gave it: letters, digits and symbols, no spaces.',
      ],
    ] as const) {
      const response = await setup({ ...OFFICIAL, ...change });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('saves it sealed, and answers the webhook verify token and address to copy', async () => {
    const key = randomUUID();
    const response = await setup(OFFICIAL, key);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.message).toBe(MESSAGES.panelSaved);
    expect(body.data.webhookUrl).toMatch(/^http:\/\/[^/]+\/api\/whatsapp\/webhook$/);
    expect(body.data.webhookVerifyToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    verifyToken = body.data.webhookVerifyToken;

    const row = (await storedRow())!;
    expect(row.panel).toBe(4);
    expect(row.business_account_id).toBe(OFFICIAL.businessAccountId);
    expect(cipher.decrypt(row.token_sealed)).toBe(OFFICIAL.token);
    expect(cipher.decrypt(row.app_secret_sealed!)).toBe(OFFICIAL.appSecret);
    expect(cipher.decrypt(row.webhook_verify_token_sealed!)).toBe(verifyToken);
    // Not in the row, the audit log or the replay store, in any column.
    const held = await everything();
    for (const secret of [OFFICIAL.token, OFFICIAL.appSecret, verifyToken])
      expect(held).not.toContain(secret);

    // A repeat gets the same answer, its verify token read again from the sealed one.
    const again = await setup(OFFICIAL, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(body);
  });

  it('shows the access token and app secret masked, never again as saved', async () => {
    const response = await getConfig();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json().data).toEqual({
      instanceid: OFFICIAL.instanceid,
      token: SECRET_KEPT,
      panel: 4,
      phone: OFFICIAL.phone,
      businessAccountId: OFFICIAL.businessAccountId,
      appSecret: SECRET_KEPT,
      webhookVerifyToken: verifyToken,
      webhookUrl: expect.stringMatching(/\/api\/whatsapp\/webhook$/),
    });
    expect(response.body).not.toContain(OFFICIAL.token);
    expect(response.body).not.toContain(OFFICIAL.appSecret);
  });

  it('keeps the saved secrets when they come back masked, and the verify token always', async () => {
    const response = await setup({
      ...OFFICIAL,
      phone: '9123456780',
      token: SECRET_KEPT,
      appSecret: SECRET_KEPT,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.webhookVerifyToken).toBe(verifyToken);
    const row = (await storedRow())!;
    expect(cipher.decrypt(row.token_sealed)).toBe(OFFICIAL.token);
    expect(cipher.decrypt(row.app_secret_sealed!)).toBe(OFFICIAL.appSecret);

    const newToken = `EAAG${'n3wT'.repeat(40)}`;
    await setup({ ...OFFICIAL, phone: '9123456780', token: newToken, appSecret: SECRET_KEPT });
    const changed = (await storedRow())!;
    expect(cipher.decrypt(changed.token_sealed)).toBe(newToken);
    expect(cipher.decrypt(changed.webhook_verify_token_sealed!)).toBe(verifyToken);
  });

  it('audits each save, the secrets hidden', async () => {
    const audits = await ctx.sql<{
      action: string;
      detail: Record<string, Record<string, unknown>>;
    }>(`SELECT action, detail FROM audit_log WHERE entity = 'panel_config' ORDER BY id`);
    expect(audits.map((audit) => audit.action)).toEqual([
      'panel.create',
      'panel.update',
      'panel.update',
    ]);
    expect(audits[0]!.detail.after).toEqual({
      instanceid: OFFICIAL.instanceid,
      token: '(hidden)',
      panel: 4,
      phone: OFFICIAL.phone,
      businessAccountId: OFFICIAL.businessAccountId,
      appSecret: '(hidden)',
    });
    // The masked save changed the phone only; the next the token only.
    expect(Object.keys(audits[1]!.detail.after!)).toEqual(['phone']);
    expect(audits[2]!.detail.after).toEqual({ token: '(hidden)' });
  });

  it('sends nothing through it yet: the test message says so', async () => {
    const response = await ctx.post('/api/social/test-message', {});
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toBe(WHATSAPP_MESSAGES.sendingNotReady);
  });

  it('is the owner’s alone: a manager and a cashier are refused, and nothing changes', async () => {
    const before = await snapshot();
    for (const role of ['manager', 'cashier'] as const) {
      const { token } = await staffSession(ctx, `${role}-p4`, role);
      const read = await ctx.app.inject(
        authed(token, { method: 'GET', url: '/api/social/get-panel-config' }),
      );
      expect(read.statusCode).toBe(403);
      expect(read.body).not.toContain(verifyToken);
      const save = await ctx.app.inject(
        authed(token, {
          method: 'POST',
          url: '/api/social/panel-setup',
          payload: { formData: { ...OFFICIAL, phone: '9000000000' } },
        }),
      );
      expect(save.statusCode).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('forgets the app secret on a switch to a gateway panel, and keeps secrets no more', async () => {
    const response = await setup({
      panel: 2,
      phone: '9876543210',
      instanceid: 'instance-2',
      token: 'gateway-token-2',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toBeUndefined();
    const row = (await storedRow())!;
    expect(row.business_account_id).toBeNull();
    expect(row.app_secret_sealed).toBeNull();
    // Back to Panel 4: the gateway's token is no access token to keep.
    const before = await snapshot();
    const refused = await setup({ ...OFFICIAL, token: SECRET_KEPT, appSecret: SECRET_KEPT });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(WHATSAPP_MESSAGES.secretsFirst);
    expect(await snapshot()).toEqual(before);
  });
});
