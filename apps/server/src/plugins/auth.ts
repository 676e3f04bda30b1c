import { randomUUID } from 'node:crypto';
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import { API_PREFIX, LIMITS, MESSAGES } from '@kanak/contract';
import { UnauthorizedError } from '../lib/errors.js';
import type { SessionStaff, StaffIdentity } from './types.js';

interface TokenClaims {
  sub: string;
  name: string;
  /** The user's token version when signed; a password change or disable bumps it. */
  ver: number;
  /** Opened with "Stay logged in": a renewed token keeps the long lifetime. */
  stay: boolean;
  /**
   * Random: every sign-in gets a token of its own, even two in the same second, and Logout
   * can end exactly this one. Absent from tokens signed before jtis were added.
   */
  jti?: string;
}

/** What a verified token carries besides our claims. */
interface VerifiedClaims extends TokenClaims {
  /** Expiry, seconds since 1970: every token is signed with a lifetime. */
  exp: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: VerifiedClaims;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The token is authentic but its session has ended: only a replay may be served. */
    sessionEnded?: boolean;
  }
  interface FastifyInstance {
    signSessionToken(user: StaffIdentity & { tokenVersion: number }, stayLoggedIn: boolean): string;
  }
}

export interface AuthOptions {
  secret: string;
  /**
   * Returns the user when the account is active, the token version is current and Logout has
   * not ended the token: one query, as this runs on every request.
   */
  findSessionUser(
    id: number,
    tokenVersion: number,
    jti: string | undefined,
  ): Promise<StaffIdentity | undefined>;
}

/** Bearer JWT on every /api route except those marked public. */
export const authPlugin = fp<AuthOptions>(async (app, options) => {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256' },
    verify: { algorithms: ['HS256'] },
  });

  app.decorate('signSessionToken', (user, stayLoggedIn) =>
    app.jwt.sign(
      {
        sub: String(user.id),
        name: user.username,
        ver: user.tokenVersion,
        stay: stayLoggedIn,
        jti: randomUUID(),
      },
      { expiresIn: stayLoggedIn ? LIMITS.tokenLifetimeStayLoggedIn : LIMITS.tokenLifetime },
    ),
  );

  app.decorateRequest('staff', null as unknown as SessionStaff);

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${API_PREFIX}/`) || request.routeOptions.config?.public) return;
    let claims: VerifiedClaims;
    try {
      claims = await request.jwtVerify<VerifiedClaims>();
    } catch {
      throw new UnauthorizedError(MESSAGES.sessionExpired);
    }
    const stayLoggedIn = claims.stay === true;
    const user = await options.findSessionUser(Number(claims.sub), claims.ver, claims.jti);
    if (user) {
      request.staff = { ...user, stayLoggedIn };
    } else if (request.routeOptions.config?.idempotent && request.headers['idempotency-key']) {
      // An authentic token that a change has since ended (say, the password change whose
      // response was lost) may fetch the stored answer to its own retried request, nothing
      // else: the idempotency plugin refuses it unless it is such a replay.
      request.staff = { id: Number(claims.sub), username: claims.name, stayLoggedIn };
      request.sessionEnded = true;
    } else {
      throw new UnauthorizedError(MESSAGES.sessionExpired);
    }
    // Every later log line of this request, "request completed" included, names the user: who
    // read or changed what can be traced (ASVS 7.1.4, 8.3.5).
    reply.log = request.log = request.log.child({ user: request.staff.username });
  });
});
