import type { FastifyBaseLogger } from 'fastify';
import { LIMITS, MESSAGES } from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { verifyDecoy, verifyPassword } from '../../lib/crypto.js';
import { TooManyRequestsError, UnauthorizedError } from '../../lib/errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import type { UsersService } from '../users/index.js';
import { authRepo } from './auth.repo.js';

export type AuthService = ReturnType<typeof createAuthService>;

/** The refusal of an attempt beyond a lock's limit, saying when to try again. */
function locked(until: Date | null) {
  const endsIn = until ? until.getTime() - Date.now() : Infinity;
  const minutes = Math.max(1, Math.min(LIMITS.loginLockMinutes, Math.ceil(endsIn / 60_000)));
  return new TooManyRequestsError(MESSAGES.accountLocked(minutes));
}

export function createAuthService({
  db,
  users,
  log,
}: {
  db: Db;
  users: UsersService;
  log: Pick<FastifyBaseLogger, 'warn'>;
}) {
  return {
    /**
     * Checks credentials. The attempt is counted before the password is checked, per address
     * and then on the account: of any number of attempts at once from one address, at most
     * five in the window are checked, and five failures lock that address out of the username
     * (429) until the lock ends. Other addresses go on; only far more failures, which take
     * many addresses, lock the username for everyone, and that is logged as an attack.
     */
    async login(username: string, password: string, address: string) {
      const lockKey = username.toLowerCase();
      const fromAddress = await authRepo.countAttemptFromAddress(db, lockKey, address);
      if (fromAddress.attempt > LIMITS.loginMaxFailures) throw locked(fromAddress.lockedUntil);
      const onAccount = await authRepo.countAttemptOnAccount(db, lockKey);
      if (onAccount.attempt === LIMITS.loginMaxFailuresFromAllAddresses) {
        log.warn(
          {
            username: lockKey,
            failures: onAccount.attempt,
            addresses: await authRepo.addressesTrying(db, lockKey),
            minutes: LIMITS.loginLockMinutes,
          },
          'sign-in attack: failed passwords from many addresses; the username is locked for everyone',
        );
      }
      if (onAccount.attempt > LIMITS.loginMaxFailuresFromAllAddresses)
        throw locked(onAccount.lockedUntil);
      const user = await users.findByUsername(username);
      const valid =
        user && !user.disabledAt
          ? await verifyPassword(user.passwordHash, password)
          : await verifyDecoy(password).then(() => false);
      if (!user || !valid) throw new UnauthorizedError(MESSAGES.invalidCredentials);
      await authRepo.clearFailures(db, lockKey, address);
      return {
        id: user.id,
        username: user.username,
        tokenVersion: user.tokenVersion,
        mustChangePassword: user.mustChangePassword,
      };
    },

    /**
     * Ends the caller's token on the server: every later request with it gets 401. A token
     * signed before tokens carried a `jti` cannot be told apart from the user's other sessions,
     * so it is only logged out of the browser and stays valid until it expires.
     */
    async logout(staff: StaffIdentity, token: { jti?: string; expiresAt: Date }) {
      await db.transaction(async (tx) => {
        const { jti, expiresAt } = token;
        const ended = jti
          ? await authRepo.endSession(tx, { jti, userId: staff.id, expiresAt })
          : false;
        // A logout that raced another of the same token has nothing left to record.
        if (jti && !ended) return;
        await recordAudit(tx, {
          userId: staff.id,
          action: 'user.logout',
          entity: 'user',
          entityId: staff.id,
          detail: { tokenEnded: ended },
        });
      });
    },
  };
}
