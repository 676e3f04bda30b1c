import type { Branch, BranchSaveRequest } from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import type { SessionUser } from '../../plugins/types.js';
import { branchesRepo, toBranch } from './branches.repo.js';

export type BranchesService = ReturnType<typeof createBranchesService>;

/** The Branches screen: the owner lists the shop's branches and adds or edits one by code. */
export function createBranchesService({ db }: { db: Db }) {
  return {
    async list(): Promise<Branch[]> {
      return (await branchesRepo.list(db)).map(toBranch);
    },

    async save(actor: SessionUser, input: BranchSaveRequest): Promise<Branch> {
      return db.transaction(async (tx) => {
        const { before, after } = await branchesRepo.save(tx, {
          code: input.code.trim(),
          name: input.name.trim(),
          address: input.address.trim(),
          phone: input.phone.trim(),
          ...(input.state === undefined ? {} : { state: input.state }),
          ...(input.receiptPaper === undefined ? {} : { receiptPaper: input.receiptPaper }),
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: before ? 'branch.update' : 'branch.add',
          entity: 'branch',
          entityId: after.code,
          detail: before ? { before: toBranch(before), after: toBranch(after) } : toBranch(after),
        });
        return toBranch(after);
      });
    },
  };
}
