import { randomInt } from 'node:crypto';
import {
  LIMITS,
  MESSAGES,
  newPassword,
  type Role,
  type StaffMember,
  type UpdateCurrentUserRequest,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { branchesRepo, toBranch, type BranchesRepo } from '../branches/index.js';
import { recordAudit } from '../../lib/audit.js';
import { isCommonPassword } from '../../lib/common-passwords.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { hashPassword, verifyPassword } from '../../lib/crypto.js';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from '../../lib/errors.js';
import type { SessionUser, StaffIdentity } from '../../plugins/types.js';
import { usersRepo, type UserRow } from './users.repo.js';

const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

export type UsersService = ReturnType<typeof createUsersService>;

/** How the users module reads branches (the branches module owns them). */
export type BranchLookup = Pick<BranchesRepo, 'findByCode' | 'findById' | 'first'>;

/** Staff accounts: the CLI's add/passwd/disable/list, and My Profile's password change. */
export function createUsersService({
  db,
  branches = branchesRepo,
  preparedStatements = true,
}: {
  db: Db;
  branches?: BranchLookup;
  /** Off behind a pooler that does not keep prepared statements (see statementName). */
  preparedStatements?: boolean;
}) {
  const sessionUser = usersRepo.prepareFindUnlessEnded(db, preparedStatements);
  return {
    async addUser(
      actor: StaffIdentity | null,
      username: string,
      password: string,
      role: Role = 'cashier',
      /** The branch's code; the shop's first branch when none is named. */
      branchCode?: string,
    ) {
      assertUsername(username);
      assertNewPassword(password);
      const passwordHash = await hashPassword(password);
      return db.transaction(async (tx) => {
        const branch =
          branchCode === undefined
            ? await branches.first(tx)
            : await branches.findByCode(tx, branchCode);
        if (!branch) throw new NotFoundError(MESSAGES.noSuchBranch(branchCode ?? ''));
        if (await usersRepo.findByUsername(tx, username)) {
          throw new ConflictError(`A user named "${username}" already exists.`);
        }
        const user = await usersRepo.insert(tx, {
          username,
          passwordHash,
          role,
          branchId: branch.id,
        });
        await recordAudit(tx, {
          userId: actor?.id ?? null,
          action: 'user.add',
          entity: 'user',
          entityId: user.id,
          after: { username, role, branch: branch.code },
        });
        return user;
      });
    },

    async setPassword(actor: StaffIdentity | null, username: string, password: string) {
      assertNewPassword(password);
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const user = await existing(
          await usersRepo.findByUsername(tx, username, { forUpdate: true }),
          username,
        );
        await usersRepo.setPassword(tx, user.id, passwordHash);
        await recordAudit(tx, {
          userId: actor?.id ?? null,
          action: 'user.passwd',
          entity: 'user',
          entityId: user.id,
        });
      });
    },

    async disableUser(actor: StaffIdentity | null, username: string) {
      await db.transaction(async (tx) => {
        const user = await existing(
          await usersRepo.findByUsername(tx, username, { forUpdate: true }),
          username,
        );
        await usersRepo.disable(tx, user.id);
        await recordAudit(tx, {
          userId: actor?.id ?? null,
          action: 'user.disable',
          entity: 'user',
          entityId: user.id,
        });
      });
    },

    listUsers: () => usersRepo.list(db),

    findByUsername: (username: string) => usersRepo.findByUsername(db, username),

    /**
     * For the auth plugin: the user if active, the token's version is current and Logout has
     * not ended the token.
     */
    async findSessionUser(
      id: number,
      tokenVersion: number,
      jti: string | undefined,
    ): Promise<SessionUser | undefined> {
      const [user] = await sessionUser.execute({ id, jti: jti ?? '' });
      if (!user || user.disabledAt || user.tokenVersion !== tokenVersion) return undefined;
      return {
        id: user.id,
        username: user.username,
        role: user.role,
        branchId: user.branchId,
        mustChangePassword: user.mustChangePassword,
        lastChangeAt: user.lastChangeAt,
      };
    },

    /** After a staff member's change is committed: see `reads` (db/reads.ts). */
    noteChange: (id: number) => usersRepo.noteChange(db, id),

    /** GET /api/me: who is signed in, as the web app shows them. */
    async me(caller: SessionUser): Promise<StaffMember> {
      const user = await existing(
        await usersRepo.findByUsername(db, caller.username),
        caller.username,
      );
      return {
        username: user.username,
        name: user.name || user.username,
        role: user.role,
        branch: toBranch((await branches.findById(db, user.branchId))!),
        mustChangePassword: user.mustChangePassword,
      };
    },

    /**
     * The first start creates the admin. Returns the password only when it was generated,
     * so that the caller prints it once.
     */
    async ensureFirstAdmin(username: string, password: string | undefined) {
      if ((await usersRepo.count(db)) > 0) return undefined;
      const chosen = password ?? generatePassword();
      try {
        await this.addUser(null, username, chosen, 'owner');
      } catch (error) {
        // Another instance created it at the same moment: fine. Seen by the name check, or,
        // when both checked before either inserted, by the unique index on the name.
        if (error instanceof ConflictError || isUniqueViolation(error)) return undefined;
        throw error;
      }
      return password ? undefined : chosen;
    },

    /** My Profile: only your own password, with the old one, to a different new one. */
    async updateOwnPassword(caller: StaffIdentity, form: UpdateCurrentUserRequest) {
      if (form.username.toLowerCase() !== caller.username.toLowerCase()) {
        throw new ForbiddenError(MESSAGES.ownProfileOnly);
      }
      assertNotCommon(form.newpassword);
      const passwordHash = await hashPassword(form.newpassword);
      return db.transaction(async (tx) => {
        const user = await existing(
          await usersRepo.findByUsername(tx, caller.username, { forUpdate: true }),
          caller.username,
        );
        if (!(await verifyPassword(user.passwordHash, form.oldpassword))) {
          throw new InvalidInputError(MESSAGES.oldPasswordIncorrect);
        }
        const updated = await usersRepo.setPassword(tx, user.id, passwordHash);
        await recordAudit(tx, {
          userId: caller.id,
          action: 'user.password',
          entity: 'user',
          entityId: user.id,
        });
        return { id: updated.id, username: updated.username, tokenVersion: updated.tokenVersion };
      });
    },
  };
}

async function existing(user: UserRow | undefined, username: string): Promise<UserRow> {
  if (!user) throw new NotFoundError(`No user named "${username}".`);
  return user;
}

function assertUsername(username: string) {
  if (!username || username.length > LIMITS.usernameMaxLength || !USERNAME_PATTERN.test(username)) {
    throw new InvalidInputError(
      `Username must be 1 to ${LIMITS.usernameMaxLength} letters, digits, dots, dashes or underscores.`,
    );
  }
}

function assertNewPassword(password: string) {
  const result = newPassword.safeParse(password);
  if (!result.success) throw new InvalidInputError(MESSAGES.passwordLength);
  assertNotCommon(password);
}

/** ASVS 2.1.7: not one of the passwords that attackers try first. */
function assertNotCommon(password: string) {
  if (isCommonPassword(password)) throw new InvalidInputError(MESSAGES.passwordTooCommon);
}

/** A password that fits the 15-character input of the sign-in and profile screens. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(
    { length: LIMITS.passwordMaxLength },
    () => alphabet[randomInt(alphabet.length)],
  ).join('');
}
