import { randomBytes } from 'node:crypto';
import { POS_MESSAGES } from '@kanak/contract';
import { MESSAGES } from '@kanak/contract';
import type { Db } from '../../db/client.js';
import type { BranchesRepo } from '../branches/index.js';
import { recordAudit } from '../../lib/audit.js';
import { InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { hashApiKey } from '../../plugins/auth.js';
import { apiKeysRepo } from './api-keys.repo.js';

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

/** `kk_` and 43 URL-safe characters: 32 random bytes. */
export const newApiKey = () => `kk_${randomBytes(32).toString('base64url')}`;

/**
 * API keys for the counters' billing systems. The key is shown once, when made; only its
 * SHA-256 is kept. (A key is 256 random bits: unlike a password, it cannot be found by trying
 * likely values, so a fast hash is enough and keeps every POS call cheap.)
 */
export function createApiKeysService({
  db,
  branches,
}: {
  db: Db;
  branches: Pick<BranchesRepo, 'findByCode' | 'first'>;
}) {
  return {
    async add(actorId: number | null, input: { label: string; branch?: string | undefined }) {
      const key = newApiKey();
      return db.transaction(async (tx) => {
        const branch = input.branch
          ? await branches.findByCode(tx, input.branch)
          : await branches.first(tx);
        if (!branch) throw new InvalidInputError(MESSAGES.noSuchBranch(input.branch ?? ''));
        const { id } = await apiKeysRepo.insert(tx, {
          label: input.label,
          keyHash: hashApiKey(key),
          prefix: key.slice(0, 7),
          branchId: branch.id,
          createdBy: actorId,
        });
        await recordAudit(tx, {
          userId: actorId,
          action: 'apiKey.add',
          entity: 'api_key',
          entityId: id,
          detail: { label: input.label, branch: branch.code },
        });
        return { id, key };
      });
    },

    async list() {
      const rows = await apiKeysRepo.list(db);
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        prefix: row.prefix,
        branch: row.branch,
        createdAt: row.createdAt.toISOString(),
        lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
        revokedAt: row.revokedAt?.toISOString() ?? null,
      }));
    },

    async revoke(actorId: number | null, id: number) {
      return db.transaction(async (tx) => {
        const row = await apiKeysRepo.revoke(tx, id, actorId);
        if (!row) throw new NotFoundError(POS_MESSAGES.apiKeyNotFound);
        await recordAudit(tx, {
          userId: actorId,
          action: 'apiKey.revoke',
          entity: 'api_key',
          entityId: id,
          detail: { label: row.label },
        });
      });
    },

    // No transaction: one read, and now and then a single-statement write of the last use.
    findApiKey: (keyHash: string) => apiKeysRepo.use(db, keyHash),
  };
}
