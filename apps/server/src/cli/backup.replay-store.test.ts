import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { createGunzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, createTestContext, staffSession, type TestContext } from '../../test/helpers.js';
import { writeBackup, type Manifest } from '../db/backup-file.js';

/** A backup file, kept for months and copied off the machine, holds no replay record. */

let ctx: TestContext;
let folder: string;

beforeAll(async () => {
  ctx = await createTestContext();
  folder = await mkdtemp(path.join(os.tmpdir(), 'kanak-backup-replays-'));
});
afterAll(async () => {
  await ctx.close();
  await rm(folder, { recursive: true, force: true });
});

describe('a backup and the replay store', () => {
  it('lists the replay store empty and holds none of its rows', async () => {
    const { token } = await staffSession(ctx, 'ria', 'owner');
    const keys = [randomUUID(), randomUUID()];
    const post = (url: string, payload: object, idempotencyKey: string) =>
      ctx.app.inject(authed(token, { method: 'POST', url, payload, idempotencyKey }));
    const made = await post('/api/settings/api-keys', { label: 'Counter 1' }, keys[0]!);
    expect(made.statusCode, made.body).toBe(200);
    const saved = await post(
      '/api/customers/update-customer-data',
      { formData: { mobileno: '9812300001', custname: 'Backup Person' } },
      keys[1]!,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = await ctx.sql<{ key: string; request_hash: string }>(
      `SELECT key, request_hash FROM idempotency_keys`,
    );
    expect(stored.map((row) => row.key).sort()).toEqual([...keys].sort());

    const { file } = await writeBackup(ctx.database.pool, folder);
    const [magic, manifestLine, ...rest] = (
      await text(createReadStream(file).pipe(createGunzip()))
    ).split('\n');
    expect(magic).toBe('KANAK-BACKUP 1');
    const manifest = JSON.parse(manifestLine!) as Manifest;
    expect(manifest.tables.find((table) => table.name === 'idempotency_keys')).toMatchObject({
      rows: 0,
    });
    expect(manifest.tables.find((table) => table.name === 'customers')?.rows).toBe(1);
    const rows = rest.join('\n');
    expect(rows).toContain('Backup Person');
    for (const { key, request_hash } of stored) {
      expect(rows).not.toContain(key);
      expect(rows).not.toContain(request_hash);
    }
  });
});
