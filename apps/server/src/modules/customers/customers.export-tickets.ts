import { createHash, randomBytes } from 'node:crypto';
import { API_PATHS, API_PREFIX, mayCall, MESSAGES } from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors.js';
import type { SessionUser } from '../../plugins/types.js';
import { exportTicketsRepo } from './customers.repo.js';

/** Long enough for the browser to start the download, short enough to be useless later. */
export const EXPORT_TICKET_SECONDS = 60;

export type ExportTickets = ReturnType<typeof createExportTickets>;

/** The session a ticket is made in; the ticket is good only while that session is. */
export interface TicketSession {
  userId: number;
  tokenVersion: number;
  jti: string | undefined;
}

interface Deps {
  db: Db;
  /** The users module's session check: an active user, the current token version, not logged out. */
  findSessionUser(
    id: number,
    tokenVersion: number,
    jti: string | undefined,
  ): Promise<SessionUser | undefined>;
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * Single-use download links for the customer CSV. A million customers are too many to pass
 * through the web app's memory, so the browser's download manager fetches the file itself,
 * from a plain GET that cannot carry the bearer token: the link carries a ticket instead.
 * The ticket is 256 random bits (not guessable), stored only as its SHA-256 (a database
 * dump holds no usable link), lives 60 seconds and is taken out when used.
 */
export function createExportTickets({ db, findSessionUser }: Deps) {
  return {
    /** A new ticket for this session; answers the download's address relative to the origin. */
    async issue(session: TicketSession): Promise<{ url: string; expiresInSeconds: number }> {
      const ticket = randomBytes(32).toString('base64url');
      await db.transaction(async (tx) => {
        await exportTicketsRepo.deleteExpired(tx);
        await exportTicketsRepo.insert(
          tx,
          {
            ticketHash: hashOf(ticket),
            userId: session.userId,
            tokenVersion: session.tokenVersion,
            jti: session.jti ?? null,
          },
          EXPORT_TICKET_SECONDS,
        );
      });
      return {
        url: `${API_PREFIX}${API_PATHS.exportDownload}?ticket=${ticket}`,
        expiresInSeconds: EXPORT_TICKET_SECONDS,
      };
    },

    /**
     * Uses the ticket up and answers whose it was. Unknown, used, expired, or made in a session
     * that has since ended (logout, password change, account disabled): refused.
     */
    async redeem(ticket: string): Promise<SessionUser> {
      const row = ticket ? await exportTicketsRepo.take(db, hashOf(ticket)) : undefined;
      if (!row) throw new NotFoundError(MESSAGES.exportLinkInvalid);
      if (row.expired) throw new NotFoundError(MESSAGES.exportLinkExpired);
      const user = await findSessionUser(row.userId, row.tokenVersion, row.jti ?? undefined);
      if (!user) throw new UnauthorizedError(MESSAGES.sessionExpired);
      // The role may have changed since the link was made.
      if (!mayCall(user.role, 'exportCustomers')) throw new ForbiddenError(MESSAGES.notAllowed);
      return user;
    },
  };
}
