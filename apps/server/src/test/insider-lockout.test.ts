import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { LIMITS, MESSAGES } from '@kanak/contract';
import { addUser, appOnDatabase, createTestContext, type TestContext } from '../../test/helpers.js';

/**
 * A stranger on the shop's network who knows the owner's username: wrong passwords must lock
 * the stranger's address out, not the owner, unless they come from many addresses at once.
 */
let ctx: TestContext;
/** The same database, an app whose log lines land in `logText`. */
let app: FastifyInstance;
let logText = '';
beforeAll(async () => {
  ctx = await createTestContext();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logText += chunk.toString();
      done();
    },
  });
  app = await appOnDatabase(ctx.database, {}, undefined, pino({ level: 'info' }, sink));
});
afterAll(async () => {
  await app?.close();
  await ctx.close();
});

const signIn = (USERNAME: string, PASSWORD: string, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/api/login/verify',
    payload: { USERNAME, PASSWORD },
    remoteAddress,
  });

/** An address of its own for each of `count` attempts: the per-address rules stay out of play. */
const manyAddresses = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `${prefix}.${i >> 8}.${(i & 255) + 1}`);

describe('sign-in lockout', () => {
  it('locks out the address that sent 5 wrong passwords, while the owner signs in from another', async () => {
    await addUser(ctx, 'owner', 'Owner@19280');
    for (let i = 0; i < 5; i++) {
      expect((await signIn('owner', 'Guess@1234', '127.0.0.2')).statusCode).toBe(401);
    }
    const locked = await signIn('owner', 'Owner@19280', '127.0.0.2');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ success: false, message: MESSAGES.accountLocked(15) });
    const owner = await signIn('owner', 'Owner@19280', '127.0.0.3');
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().accessToken).toEqual(expect.any(String));
    // The stranger's address stays locked for the whole period, the right password or not.
    expect((await signIn('owner', 'Owner@19280', '127.0.0.2')).statusCode).toBe(429);
  });

  it('checks at most 5 of 20 wrong passwords fired at once from one address', async () => {
    await addUser(ctx, 'burst', 'Burst@19280');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => signIn('burst', 'Wrong@19280', '127.0.0.4')),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // A 401 is a password that was checked and found wrong; a 429 was refused unchecked.
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    expect((await signIn('burst', 'Burst@19280', '127.0.0.4')).statusCode).toBe(429);
    expect((await signIn('burst', 'Burst@19280', '127.0.0.5')).statusCode).toBe(200);
  });

  it('locks the username for everyone after 50 wrong passwords from many addresses, and logs an attack without the password', async () => {
    await addUser(ctx, 'target', 'Target@1928');
    logText = '';
    const attackers = manyAddresses(LIMITS.loginMaxFailuresFromAllAddresses, '10.50');
    // Fired at once, too: the count is exact whatever the order.
    const answers = await Promise.all(
      attackers.map((address) => signIn('target', 'Attack#Pass99', address)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(attackers.map(() => 401));
    const refused = await signIn('target', 'Target@1928', '127.0.0.6');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ success: false, message: MESSAGES.accountLocked(15) });
    // A 51st address gets no password checked either.
    expect((await signIn('target', 'Attack#Pass99', '10.51.0.1')).statusCode).toBe(429);

    const attack = logText
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => String(line.msg).startsWith('sign-in attack'));
    expect(attack).toEqual([
      expect.objectContaining({ level: 40, username: 'target', failures: 50, addresses: 50 }),
    ]);
    expect(logText).not.toContain('Attack#Pass99');
    expect(logText).not.toContain('Target@1928');

    // When the lock period is over, the owner signs in again.
    await ctx.sql(
      `UPDATE login_lockouts SET window_started_at = now() - interval '31 minutes',
              locked_until = now() - interval '1 second' WHERE username = 'target'`,
    );
    expect((await signIn('target', 'Target@1928', '127.0.0.6')).statusCode).toBe(200);
  });

  it('counts no attempt on the account that an address lock refused: one address cannot reach 50', async () => {
    await addUser(ctx, 'patient', 'Patient@1928');
    for (let i = 0; i < 60; i++) await signIn('patient', 'Wrong@19280', '127.0.0.7');
    const [row] = await ctx.sql<{ failures: number; locked_until: Date | null }>(
      `SELECT failures, locked_until FROM login_lockouts WHERE username = 'patient'`,
    );
    expect(row).toEqual({ failures: 5, locked_until: null });
    expect((await signIn('patient', 'Patient@1928', '127.0.0.8')).statusCode).toBe(200);
  });

  it('takes the owner’s own successful attempt back off the account’s count', async () => {
    await addUser(ctx, 'steady', 'Steady@1928');
    for (const address of manyAddresses(3, '10.52')) await signIn('steady', 'Nope@19280', address);
    expect((await signIn('steady', 'Steady@1928', '127.0.0.9')).statusCode).toBe(200);
    const [row] = await ctx.sql<{ failures: number }>(
      `SELECT failures FROM login_lockouts WHERE username = 'steady'`,
    );
    expect(row?.failures).toBe(3);
  });

  it('sweeps, on the hourly round, the counts whose window has passed, keeping the locks that hold', async () => {
    // The app's hourly timer made fake, so the hour can be made to pass.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const swept = await appOnDatabase(ctx.database);
    try {
      await ctx.sql(`DELETE FROM login_lockouts; DELETE FROM login_address_lockouts`);
      await ctx.sql(
        `INSERT INTO login_lockouts (username, failures, window_started_at, locked_until) VALUES
           ('stale', 3, now() - interval '2 hours', NULL),
           ('lock-over', 50, now() - interval '2 hours', now() - interval '1 hour'),
           ('locked', 50, now() - interval '20 minutes', now() + interval '1 minute'),
           ('fresh', 2, now(), NULL)`,
      );
      await ctx.sql(
        `INSERT INTO login_address_lockouts (username, address, failures, window_started_at, locked_until)
         VALUES ('stale', '10.0.0.1', 3, now() - interval '2 hours', NULL),
                ('locked', '10.0.0.1', 5, now() - interval '20 minutes', now() + interval '1 minute')`,
      );
      await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
      const left = async () => [
        ...(await ctx.sql<{ username: string }>(`SELECT username FROM login_lockouts`)),
        ...(await ctx.sql<{ username: string }>(`SELECT username FROM login_address_lockouts`)),
      ];
      for (let i = 0; i < 100 && (await left()).length > 3; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await left()).map((row) => row.username).sort()).toEqual([
        'fresh',
        'locked',
        'locked',
      ]);
    } finally {
      vi.useRealTimers();
      await swept.close();
    }
  });
});
