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
import { usersRepo, type UserRow } from './users.repo.js';
import { generatePassword } from './users.service.js';

export type StaffService = ReturnType<typeof createStaffService>;

/**
 * The Staff screen: accounts made with a temporary password (shown once, changed at the first
 * sign-in), their name and role, disable and enable, and a password reset. An owner manages
 * everyone; a manager manages cashiers only. The shop always keeps an active owner.
 */
export function createStaffService({ db }: { db: Db }) {
  /** The account, locked, if the actor may manage it. */
  async function managed(tx: Tx, actor: SessionUser, username: string) {
    const user = await usersRepo.findByUsername(tx, username, { forUpdate: true });
    if (!user) throw new NotFoundError(`No staff account named "${username}".`);
    if (!mayManage(actor, user.role)) throw new ForbiddenError(MESSAGES.notAllowed);
    return user;
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
      const rows = await usersRepo.list(db);
      return rows
        .filter((user) => mayManage(actor, user.role) || user.id === actor.id)
        .map(toAccount);
    },

    async add(actor: SessionUser, input: StaffAddRequest) {
      if (!mayManage(actor, input.role)) throw new ForbiddenError(MESSAGES.notAllowed);
      const temporaryPassword = generatePassword();
      const passwordHash = await hashPassword(temporaryPassword);
      await db.transaction(async (tx) => {
        if (await usersRepo.findByUsername(tx, input.username)) {
          throw new ConflictError(`A staff account named "${input.username}" already exists.`);
        }
        const user = await usersRepo.insert(tx, {
          username: input.username,
          name: input.name,
          role: input.role,
          passwordHash,
          mustChangePassword: true,
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'staff.add',
          entity: 'user',
          entityId: user.id,
          detail: { username: user.username, name: user.name, role: user.role },
        });
      });
      return { username: input.username, temporaryPassword };
    },

    async update(actor: SessionUser, input: StaffUpdateRequest) {
      await db.transaction(async (tx) => {
        const user = await managed(tx, actor, input.username);
        if (input.role && !mayManage(actor, input.role)) {
          throw new ForbiddenError(MESSAGES.notAllowed);
        }
        if (input.role && input.role !== 'owner') await keepAnOwner(tx, user);
        const after = { name: input.name ?? user.name, role: input.role ?? user.role };
        await usersRepo.update(tx, user.id, after);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'staff.update',
          entity: 'user',
          entityId: user.id,
          detail: { before: { name: user.name, role: user.role }, after },
        });
      });
    },

    /** Disabling ends the account's sessions; the last active owner stays enabled. */
    async setDisabled(actor: SessionUser, username: string, disabled: boolean) {
      await db.transaction(async (tx) => {
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
        });
      });
      return { username, temporaryPassword };
    },
  };
}

/** An owner manages everyone; a manager the cashiers. */
const mayManage = (actor: SessionUser, role: Role) =>
  actor.role === 'owner' || (actor.role === 'manager' && role === 'cashier');

function toAccount(user: UserRow): StaffAccount {
  return {
    username: user.username,
    name: user.name,
    role: user.role,
    disabled: user.disabledAt !== null,
    mustChangePassword: user.mustChangePassword,
    createdAt: user.createdAt.toISOString(),
  };
}
