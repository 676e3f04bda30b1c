import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@kanak/contract';
import { createFieldCipher } from '../../lib/crypto.js';
import { TEST_SECRETS, signedIn, type SignedIn } from '../../../test/helpers.js';

let ctx: SignedIn;

beforeAll(async () => {
  ctx = await signedIn('owner', { username: 'farhan' });
});
afterAll(() => ctx.close());

const getConfig = () => ctx.inject({ method: 'GET', url: '/api/social/get-panel-config' });

const setup = (formData: unknown, idempotencyKey?: string) =>
  ctx.inject({
    method: 'POST',
    url: '/api/social/panel-setup',
    payload: { formData } as Record<string, unknown>,
    idempotencyKey,
  });

const VALID = {
  instanceid: 'instance-7781',
  token: 'tok_9f8e7d6c5b4a3210-secret',
  panel: 2,
  phone: '9876543210',
};

const expectRefusal = (response: LightMyRequestResponse, status: number, message?: string) => {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(body.success).toBe(false);
  if (message !== undefined) expect(body.message).toBe(message);
};

const storedRow = async () =>
  (
    await ctx.sql<{
      instance_id: string;
      token_sealed: string;
      panel: number;
      phone: string;
      updated_by: number;
    }>(`SELECT instance_id, token_sealed, panel, phone, updated_by FROM panel_config`)
  )[0];

const auditRows = () =>
  ctx.sql<{ action: string; detail: Record<string, unknown> }>(
    `SELECT action, detail FROM audit_log WHERE entity = 'panel_config' ORDER BY id`,
  );

/** The configuration row and the audit log are the same after the action as before it. */
async function changesNothing(action: () => Promise<void>) {
  const before = { row: await storedRow(), audits: await auditRows() };
  await action();
  expect({ row: await storedRow(), audits: await auditRows() }).toEqual(before);
}

// The tests of this file run in order: the first sees no configuration at all.
describe('GET /api/social/get-panel-config before anything is saved', () => {
  it('answers empty fields with success true', async () => {
    const response = await getConfig();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { instanceid: '', token: '', panel: '', phone: '' },
    });
  });
});

describe('POST /api/social/panel-setup', () => {
  it('refuses each invalid field with a message naming it, and saves nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ instanceid: '' }, 'Instance Id is required.'],
      [{ instanceid: '   ' }, 'Instance Id is required.'],
      [{ instanceid: undefined }, 'Instance Id is required.'],
      [{ instanceid: 'i'.repeat(201) }, 'Instance Id must be at most 200 characters.'],
      [{ token: '' }, 'Token is required.'],
      [{ token: undefined }, 'Token is required.'],
      [{ token: 't'.repeat(201) }, 'Token must be at most 200 characters.'],
      [{ panel: 0 }, 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.'],
      [{ panel: 5 }, 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.'],
      // Panel 4, the official API, takes its business account and app secret too.
      [
        { panel: 4 },
        "Instance Id must be the phone number's id: digits only. Business account id is required. App secret is required.",
      ],
      [{ panel: '' }, 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.'],
      [{ panel: '1.0' }, 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.'],
      [{ panel: 1.5 }, 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.'],
      [{ panel: undefined }, 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.'],
      [{ panel: null }, 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.'],
      [{ phone: '' }, 'Phone is required.'],
      [{ phone: undefined }, 'Phone is required.'],
      [{ phone: '98765' }, 'Phone must be 10 digits.'],
      [{ phone: '98765432101' }, 'Phone must be 10 digits.'],
      [{ phone: '98765-4321' }, 'Phone must be 10 digits.'],
    ];
    await changesNothing(async () => {
      for (const [change, message] of cases) {
        const response = await setup({ ...VALID, ...change });
        expectRefusal(response, 400, message);
      }
      expectRefusal(await setup(undefined), 400);
    });
  });

  it('names every invalid field at once', async () => {
    const response = await setup({ instanceid: '', token: '', panel: 9, phone: '1' });
    expectRefusal(response, 400);
    const { message } = response.json<{ message: string }>();
    for (const part of ['Instance Id', 'Token', 'Select Panel', 'Phone']) {
      expect(message).toContain(part);
    }
  });

  it('saves the configuration and GET returns it with the token readable', async () => {
    const response = await setup(VALID);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: MESSAGES.panelSaved });
    const loaded = await getConfig();
    expect(loaded.json()).toEqual({ success: true, data: VALID });
    expect(loaded.headers['cache-control']).toBe('no-store');
  });

  it('keeps the token encrypted at rest, never the plain token', async () => {
    const row = await storedRow();
    expect(row?.token_sealed).not.toContain(VALID.token);
    expect(row?.token_sealed).toMatch(/^v1:/);
    expect(createFieldCipher(TEST_SECRETS.dataKey).decrypt(row!.token_sealed)).toBe(VALID.token);
    const [{ n }] = (await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM panel_config WHERE token_sealed LIKE '%' || $1 || '%'`,
      [VALID.token],
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('accepts the panel as a digit string and trims the text fields', async () => {
    const response = await setup({
      instanceid: '  instance-9  ',
      token: ' new-token ',
      panel: '3',
      phone: ' 9123456780 ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await getConfig()).json().data).toEqual({
      instanceid: 'instance-9',
      token: 'new-token',
      panel: 3,
      phone: '9123456780',
    });
    const rows = await ctx.sql(`SELECT id FROM panel_config`);
    expect(rows).toEqual([{ id: 1 }]);
  });

  it('audits each save with who and what changed, without the token value', async () => {
    await setup({ ...VALID, phone: '9000000001' });
    const audits = await ctx.sql<{ username: string; action: string; detail: unknown }>(
      `SELECT u.username, a.action, a.detail, a.entity_id FROM audit_log a
         JOIN users u ON u.id = a.user_id WHERE a.entity = 'panel_config' ORDER BY a.id`,
    );
    expect(audits.map((audit) => audit.action)).toEqual([
      'panel.create',
      'panel.update',
      'panel.update',
    ]);
    expect(audits.every((audit) => audit.username === 'farhan')).toBe(true);
    expect(audits[2]).toMatchObject({
      entity_id: '1',
      detail: {
        after: { instanceid: VALID.instanceid, token: '(hidden)', panel: 2, phone: '9000000001' },
      },
    });
    const all = JSON.stringify(await ctx.sql(`SELECT detail FROM audit_log`));
    expect(all).not.toContain(VALID.token);
    expect(all).not.toContain('new-token');
    expect((await storedRow())?.updated_by).toBeGreaterThan(0);
  });

  it('replays a repeat with the same Idempotency-Key and refuses the key for another body', async () => {
    const key = randomUUID();
    const form = { ...VALID, instanceid: 'instance-replayed' };
    const first = await setup(form, key);
    expect(first.statusCode).toBe(200);
    await changesNothing(async () => {
      const again = await setup(form, key);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expectRefusal(
        await setup({ ...form, phone: '9111111111' }, key),
        409,
        MESSAGES.idempotencyKeyReused,
      );
    });
  });
});

describe('authentication', () => {
  it('answers 401 without a token on both routes, and changes nothing', async () => {
    await changesNothing(async () => {
      expectRefusal(
        await ctx.app.inject({ method: 'GET', url: '/api/social/get-panel-config' }),
        401,
        MESSAGES.sessionExpired,
      );
      expectRefusal(
        await ctx.app.inject({
          method: 'POST',
          url: '/api/social/panel-setup',
          payload: { formData: VALID },
          headers: { 'idempotency-key': randomUUID() },
        }),
        401,
        MESSAGES.sessionExpired,
      );
    });
  });
});
