import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Role } from '@kanak/contract';
import { addUser, authed, createTestContext, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext;
let owner: string;
let manager: string;

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx, 'asha', 'Asha@1928x', 'owner');
  await addUser(ctx, 'mohan', 'Mohan@1928x', 'manager');
  owner = await signedIn('asha', 'Asha@1928x');
  manager = await signedIn('mohan', 'Mohan@1928x');
});
afterAll(() => ctx.close());

let address = 1;
async function signIn(USERNAME: string, PASSWORD: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/login/verify',
    payload: { USERNAME, PASSWORD },
    remoteAddress: `10.3.${address >> 8}.${address++ & 255}`,
  });
}
async function signedIn(username: string, password: string) {
  const response = await signIn(username, password);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().accessToken as string;
}
const call = (token: string, path: string, payload?: object) =>
  ctx.app.inject(
    authed(
      token,
      payload
        ? { method: 'POST', url: `/api${path}`, payload }
        : { method: 'GET', url: `/api${path}` },
    ),
  );
const add = (token: string, username: string, role: Role, name = `Name of ${username}`) =>
  call(token, '/staff/add', { username, name, role });
const roleOf = async (username: string) =>
  (await ctx.sql<{ role: string }>(`SELECT role FROM users WHERE username = $1`, [username]))[0]
    ?.role;

describe('staff accounts', () => {
  it('adds an account with a temporary password shown once, which must be changed before anything else', async () => {
    const added = await add(owner, 'priya', 'cashier', 'Priya Raman');
    expect(added.statusCode, added.body).toBe(200);
    const { temporaryPassword } = added.json().data;
    expect(added.json()).toEqual({
      success: true,
      message: MESSAGES.staffAdded('priya'),
      data: { username: 'priya', temporaryPassword: expect.stringMatching(/^.{15}$/) },
    });
    // Stored hashed, never in the audit trail.
    const [row] = await ctx.sql<{ password_hash: string }>(
      `SELECT password_hash FROM users WHERE username = 'priya'`,
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(await ctx.sql(`SELECT detail FROM audit_log`))).not.toContain(
      temporaryPassword,
    );

    const login = await signIn('priya', temporaryPassword);
    expect(login.json()).toMatchObject({ success: true, mustChangePassword: true });
    const token = login.json().accessToken as string;
    const refused = await call(token, '/customers/get-fyear');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: MESSAGES.changeTemporaryPassword });
    expect((await call(token, '/me')).json().data).toEqual({
      username: 'priya',
      name: 'Priya Raman',
      role: 'cashier',
      branch: {
        code: 'MAIN',
        name: 'Main showroom',
        address: '12 Zaveri Bazaar, Mumbai 400002',
        phone: '+91 22 2342 1928',
      },
      mustChangePassword: true,
    });

    const changed = await call(token, '/user/update-current-user', {
      username: 'priya',
      oldpassword: temporaryPassword,
      newpassword: 'Priya@2026x',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = changed.json().accessToken as string;
    expect((await call(fresh, '/customers/get-fyear')).statusCode).toBe(200);
    expect((await call(fresh, '/me')).json().data.mustChangePassword).toBe(false);
    expect((await signIn('priya', 'Priya@2026x')).json().mustChangePassword).toBeUndefined();
  });

  it('lets a manager manage cashiers only, and an owner everyone', async () => {
    expect((await add(manager, 'kiran', 'cashier')).statusCode).toBe(200);
    for (const role of ['manager', 'owner'] as const) {
      const refused = await add(manager, `too-high-${role}`, role);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(MESSAGES.notAllowed);
    }
    expect(
      (await call(manager, '/staff/update', { username: 'kiran', role: 'manager' })).statusCode,
    ).toBe(403);
    expect((await call(manager, '/staff/disable', { username: 'asha' })).statusCode).toBe(403);
    expect(await roleOf('kiran')).toBe('cashier');
    const listed = (await call(manager, '/staff'))
      .json()
      .data.map((a: { username: string }) => a.username);
    expect(listed).toEqual(expect.arrayContaining(['kiran', 'mohan', 'priya']));
    expect(listed).not.toContain('asha');
    expect((await add(owner, 'deepa', 'manager')).statusCode).toBe(200);
    expect(await roleOf('deepa')).toBe('manager');
  });

  it('ends the sessions of an account whose role changes, that is disabled or whose password is reset', async () => {
    const { temporaryPassword } = (await add(owner, 'ravi', 'cashier')).json().data;
    const first = await signedIn('ravi', temporaryPassword);
    await call(first, '/user/update-current-user', {
      username: 'ravi',
      oldpassword: temporaryPassword,
      newpassword: 'Ravi@2026xy',
    });
    let token = await signedIn('ravi', 'Ravi@2026xy');
    const works = () => call(token, '/customers/get-fyear');

    expect(
      (await call(owner, '/staff/update', { username: 'ravi', role: 'manager' })).statusCode,
    ).toBe(200);
    expect((await works()).statusCode).toBe(401);
    token = await signedIn('ravi', 'Ravi@2026xy');

    expect((await call(owner, '/staff/disable', { username: 'ravi' })).json()).toEqual({
      success: true,
      message: MESSAGES.staffDisabled('ravi'),
    });
    expect((await works()).statusCode).toBe(401);
    expect((await signIn('ravi', 'Ravi@2026xy')).statusCode).toBe(401);
    expect((await call(owner, '/staff/enable', { username: 'ravi' })).statusCode).toBe(200);
    token = await signedIn('ravi', 'Ravi@2026xy');

    const reset = await call(owner, '/staff/reset-password', { username: 'ravi' });
    expect((await works()).statusCode).toBe(401);
    const login = await signIn('ravi', reset.json().data.temporaryPassword);
    expect(login.json().mustChangePassword).toBe(true);
    expect((await signIn('ravi', 'Ravi@2026xy')).statusCode).toBe(401);
  });

  it('never leaves the shop without an active owner, even when two owners demote each other at once', async () => {
    // Alone, the owner can neither step down nor be disabled.
    const demote = await call(owner, '/staff/update', { username: 'asha', role: 'manager' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(MESSAGES.lastOwner);
    expect((await call(owner, '/staff/disable', { username: 'asha' })).statusCode).toBe(409);
    expect(await roleOf('asha')).toBe('owner');

    const { temporaryPassword } = (await add(owner, 'vikram', 'owner')).json().data;
    const first = await signedIn('vikram', temporaryPassword);
    const vikram = (
      await call(first, '/user/update-current-user', {
        username: 'vikram',
        oldpassword: temporaryPassword,
        newpassword: 'Vikram@2026x',
      })
    ).json().accessToken as string;
    const answers = await Promise.all([
      call(owner, '/staff/update', { username: 'vikram', role: 'cashier' }),
      call(vikram, '/staff/update', { username: 'asha', role: 'cashier' }),
    ]);
    // One goes through; the other is refused: the last owner (409), or, had the first already
    // made Vikram a cashier, his ended session (401).
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const owners = await ctx.sql(
      `SELECT username FROM users WHERE role = 'owner' AND disabled_at IS NULL`,
    );
    expect(owners).toHaveLength(1);
  });
});
