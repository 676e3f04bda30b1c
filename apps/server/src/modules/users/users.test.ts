import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kanak/contract';
import {
  addUser,
  authed,
  createTestContext,
  login,
  type TestContext,
} from '../../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx, 'kavya', 'Kavya@1928');
  await addUser(ctx, 'arjun', 'Arjun@1928');
});
afterAll(() => ctx.close());

const update = (token: string, payload: Record<string, unknown>, idempotencyKey?: string) =>
  ctx.app.inject(
    authed(token, {
      method: 'POST',
      url: '/api/user/update-current-user',
      payload,
      idempotencyKey,
    }),
  );

describe('POST /api/user/update-current-user', () => {
  let token: string;
  beforeAll(async () => {
    token = await login(ctx, 'kavya', 'Kavya@1928');
  });

  it.each([
    [
      { username: 'kavya', oldpassword: 'Kavya@1928', newpassword: '' },
      MESSAGES.provideNewPassword,
    ],
    [{ username: 'kavya', oldpassword: '', newpassword: 'Another@1' }, MESSAGES.provideOldPassword],
    [
      { username: 'kavya', oldpassword: 'Kavya@1928', newpassword: 'short' },
      MESSAGES.passwordLength,
    ],
    [
      { username: 'kavya', oldpassword: 'Kavya@1928', newpassword: 'sixteen-chars-xx' },
      MESSAGES.passwordLength,
    ],
    [
      { username: 'kavya', oldpassword: 'Kavya@1928', newpassword: 'Kavya@1928' },
      MESSAGES.passwordMustDiffer,
    ],
  ])('refuses %j with 400 "%s" and changes nothing', async (payload, message) => {
    const response = await update(token, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
    expect(await ctx.sql(`SELECT * FROM audit_log WHERE action = 'user.password'`)).toHaveLength(0);
  });

  it('names both missing passwords together', async () => {
    const response = await update(token, { username: 'kavya', oldpassword: '', newpassword: '' });
    expect(response.json().message).toBe(
      `${MESSAGES.provideOldPassword} ${MESSAGES.provideNewPassword}`,
    );
  });

  it('refuses a wrong old password', async () => {
    const response = await update(token, {
      username: 'kavya',
      oldpassword: 'Wrong@1928',
      newpassword: 'Another@1',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(MESSAGES.oldPasswordIncorrect);
  });

  it("refuses to change someone else's password (403)", async () => {
    const response = await update(token, {
      username: 'arjun',
      oldpassword: 'Kavya@1928',
      newpassword: 'Another@1',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(MESSAGES.ownProfileOnly);
  });

  it('requires an Idempotency-Key', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/update-current-user',
      headers: { authorization: `Bearer ${token}` },
      payload: { username: 'kavya', oldpassword: 'Kavya@1928', newpassword: 'Another@1' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(MESSAGES.idempotencyKeyRequired);
  });

  it('changes the password, ends other sessions and returns a working fresh token', async () => {
    const otherSession = await login(ctx, 'kavya', 'Kavya@1928');
    const response = await update(token, {
      username: 'kavya',
      oldpassword: 'Kavya@1928',
      newpassword: 'Another@1',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: MESSAGES.passwordUpdated });

    const probe = (t: string) => update(t, {});
    expect((await probe(otherSession)).statusCode).toBe(401);
    expect((await probe(token)).statusCode).toBe(401);
    expect((await probe(body.accessToken)).statusCode).toBe(400);

    await expect(login(ctx, 'kavya', 'Kavya@1928')).rejects.toThrow();
    expect(await login(ctx, 'kavya', 'Another@1')).toBeTruthy();
    const audit = await ctx.sql(
      `SELECT action, entity FROM audit_log WHERE action = 'user.password'`,
    );
    expect(audit).toEqual([{ action: 'user.password', entity: 'user' }]);
    const [hash] = await ctx.sql<{ password_hash: string }>(
      `SELECT password_hash FROM users WHERE username = 'kavya'`,
    );
    expect(hash?.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('Idempotency-Key', () => {
  it('does the work once: a repeat with the ended token is 401, with a fresh one 409, never a token', async () => {
    const token = await login(ctx, 'arjun', 'Arjun@1928');
    const payload = { username: 'arjun', oldpassword: 'Arjun@1928', newpassword: 'Second@1928' };
    const first = await update(token, payload, 'key-repeat-0001');
    expect(first.statusCode).toBe(200);
    // The change ended the session that made it: its repeat reads nothing back.
    const again = await update(token, payload, 'key-repeat-0001');
    expect(again.statusCode).toBe(401);
    expect(again.json().accessToken).toBeUndefined();
    // Signed in afresh, the same request is told it was done; the fresh token is kept nowhere.
    const fresh = await login(ctx, 'arjun', 'Second@1928');
    const repeated = await update(fresh, payload, 'key-repeat-0001');
    expect(repeated.statusCode).toBe(409);
    expect(repeated.json()).toEqual({ success: false, message: MESSAGES.passwordAlreadyUpdated });
    const audit = await ctx.sql(
      `SELECT * FROM audit_log WHERE action = 'user.password' AND entity_id = (SELECT id::text FROM users WHERE username = 'arjun')`,
    );
    expect(audit).toHaveLength(1);
  });

  it('refuses the same key with a different body (409) and changes nothing', async () => {
    const token = await login(ctx, 'arjun', 'Second@1928');
    await update(
      token,
      { username: 'arjun', oldpassword: 'nope-nope', newpassword: 'Third@1928' },
      'key-reuse-0001',
    );
    const reused = await update(
      token,
      { username: 'arjun', oldpassword: 'Second@1928', newpassword: 'Third@1928' },
      'key-reuse-0001',
    );
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(MESSAGES.idempotencyKeyReused);
    expect(await login(ctx, 'arjun', 'Second@1928')).toBeTruthy();
  });

  it('serves only the replay to a token whose session the change ended', async () => {
    const token = await login(ctx, 'arjun', 'Second@1928');
    const payload = { username: 'arjun', oldpassword: 'Second@1928', newpassword: 'Fourth@1928' };
    const first = await update(token, payload, 'key-ended-0001');
    expect(first.statusCode).toBe(200);
    const other = await update(token, { ...payload, newpassword: 'Fifth@19280' }, 'key-ended-0002');
    expect(other.statusCode).toBe(401);
    const otherBodySameKey = await update(
      token,
      { ...payload, newpassword: 'Fifth@19280' },
      'key-ended-0001',
    );
    expect(otherBodySameKey.statusCode).toBe(401);
    expect(await login(ctx, 'arjun', 'Fourth@1928')).toBeTruthy();
  });

  it('keeps keys per user', async () => {
    await addUser(ctx, 'neha', 'Neha@192800');
    const token = await login(ctx, 'neha', 'Neha@192800');
    const response = await update(
      token,
      { username: 'neha', oldpassword: 'Neha@192800', newpassword: 'Neha@2000a' },
      'key-repeat-0001',
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  });
});
