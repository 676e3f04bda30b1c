import {
  MESSAGES,
  type Role,
  type StaffAccount,
  type StaffAddRequest,
  type StaffUpdateRequest,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { hashPassword } from '../../lib/crypto.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.js';
import type { SessionUser } from '../../plugins/types.js';
import { branchesRepo, type BranchRow } from '../branches/index.js';
import { usersRepo, type UserRow } from './users.repo.js';
import { generatePassword, type BranchLookup } from './users.service.js';

export type StaffService = ReturnType<typeof createStaffService>;

/**
 * The Staff screen: accounts made with a temporary password (shown once, changed at the first
 * sign-in), their name, role and branch, disable and enable, and a password reset. An owner
 * manages everyone; a manager manages the cashiers of the manager's own branch only. The shop
 * always keeps an active owner.
 */
export function createStaffService({
  db,
  branches = branchesRepo,
}: {
  db: Db;
  branches?: BranchLookup & Pick<typeof branchesRepo, 'list'>;
}) {
  /** The account, locked, if the actor may manage it. */
  async function managed(tx: Tx, actor: SessionUser, username: string) {
    const user = await usersRepo.findByUsername(tx, username, { forUpdate: true });
    if (!user) throw new NotFoundError(`No staff account named "${username}".`);
    if (!mayManage(actor, user.role, user.branchId)) throw new ForbiddenError(MESSAGES.notAllowed);
    return user;
  }

  /** The branch named by its code, or the actor's own when none is named. */
  async function branchOf(tx: Tx, actor: SessionUser, code: string | undefined) {
    const branch =
      code === undefined
        ? await branches.findById(tx, actor.branchId)
        : await branches.findByCode(tx, code);
    if (!branch) throw new NotFoundError(MESSAGES.noSuchBranch(code ?? ''));
    return branch;
  }

  /** Refuses a change that would leave no active owner. */
  async function keepAnOwner(tx: Tx, user: UserRow) {
    if (user.role !== 'owner' || user.disabledAt) return;
    const owners = await usersRepo.lockActiveOwners(tx);
    if (owners.filter((owner) => owner.id !== user.id).length === 0) {
      throw new ConflictError(MESSAGES.lastOwner);
    }
  }

  return {
    async list(actor: SessionUser): Promise<StaffAccount[]> {
      const [rows, all] = await Promise.all([usersRepo.list(db), branches.list(db)]);
      const byId = new Map(all.map((branch) => [branch.id, branch]));
      return rows
        .filter((user) => mayManage(actor, user.role, user.branchId) || user.id === actor.id)
        .map((user) => toAccount(user, byId.get(user.branchId)!));
    },

    async add(actor: SessionUser, input: StaffAddRequest) {
      const temporaryPassword = generatePassword();
      const passwordHash = await hashPassword(temporaryPassword);
      await db.transaction(async (tx) => {
        const branch = await branchOf(tx, actor, input.branch);
        if (!mayManage(actor, input.role, branch.id)) {
          throw new ForbiddenError(MESSAGES.notAllowed);
        }
        if (await usersRepo.findByUsername(tx, input.username)) {
          throw new ConflictError(`A staff account named "${input.username}" already exists.`);
        }
        const user = await usersRepo.insert(tx, {
          username: input.username,
          name: input.name,
          role: input.role,
          branchId: branch.id,
          passwordHash,
          mustChangePassword: true,
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'staff.add',
          entity: 'user',
          entityId: user.id,
          after: { username: user.username, name: user.name, role: user.role, branch: branch.code },
        });
      });
      return { username: input.username, temporaryPassword };
    },

    async update(actor: SessionUser, input: StaffUpdateRequest) {
      await db.transaction(async (tx) => {
        // Owners first, then the account: two owners demoting each other take the locks in
        // the same order, so one waits for the other instead of deadlocking.
        if (actor.role === 'owner' && input.role && input.role !== 'owner') {
          await usersRepo.lockActiveOwners(tx);
        }
        const user = await managed(tx, actor, input.username);
        const was = (await branches.findById(tx, user.branchId))!;
        const branch = input.branch === undefined ? was : await branchOf(tx, actor, input.branch);
        if (!mayManage(actor, input.role ?? user.role, branch.id)) {
          throw new ForbiddenError(MESSAGES.notAllowed);
        }
        if (input.role && input.role !== 'owner') await keepAnOwner(tx, user);
        const after = { name: input.name ?? user.name, role: input.role ?? user.role };
        await usersRepo.update(tx, user.id, { ...after, branchId: branch.id });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'staff.update',
          entity: 'user',
          entityId: user.id,
          before: { name: user.name, role: user.role, branch: was.code },
          after: { ...after, branch: branch.code },
        });
      });
    },

    /** Disabling ends the account's sessions; the last active owner stays enabled. */
    async setDisabled(actor: SessionUser, username: string, disabled: boolean) {
      await db.transaction(async (tx) => {
        if (actor.role === 'owner' && disabled) await usersRepo.lockActiveOwners(tx);
        const user = await managed(tx, actor, username);
        if ((user.disabledAt !== null) === disabled) return;
        if (disabled) {
          await keepAnOwner(tx, user);
          await usersRepo.disable(tx, user.id);
        } else {
          await usersRepo.enable(tx, user.id);
        }
        await recordAudit(tx, {
          userId: actor.id,
          action: disabled ? 'staff.disable' : 'staff.enable',
          entity: 'user',
          entityId: user.id,
          before: { disabled: !disabled },
          after: { disabled },
        });
      });
    },

    /** A new temporary password; every session of the account ends. */
    async resetPassword(actor: SessionUser, username: string) {
      const temporaryPassword = generatePassword();
      const passwordHash = await hashPassword(temporaryPassword);
      await db.transaction(async (tx) => {
        const user = await managed(tx, actor, username);
        await usersRepo.setPassword(tx, user.id, passwordHash, true);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'staff.reset-password',
          entity: 'user',
          entityId: user.id,
          after: { username: user.username, temporaryPassword: true, sessionsEnded: true },
        });
      });
      return { username, temporaryPassword };
    },
  };
}

/** An owner manages everyone; a manager the cashiers of the manager's own branch. */
const mayManage = (actor: SessionUser, role: Role, branchId: number) =>
  actor.role === 'owner' ||
  (actor.role === 'manager' && role === 'cashier' && branchId === actor.branchId);

function toAccount(user: UserRow, branch: BranchRow): StaffAccount {
  return {
    username: user.username,
    name: user.name,
    role: user.role,
    branch: branch.code,
    disabled: user.disabledAt !== null,
    mustChangePassword: user.mustChangePassword,
    createdAt: user.createdAt.toISOString(),
  };
}
