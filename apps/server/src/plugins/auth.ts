import { randomUUID } from 'node:crypto';
import fastifyJwt from '@fastify/jwt';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { createHash, createHmac } from 'node:crypto';
import {
  ACCESS,
  API_PATHS,
  API_PREFIX,
  LIMITS,
  MACHINE_PATHS,
  MEMBER_LIMITS,
  MEMBER_MESSAGES,
  MEMBER_PATHS,
  MESSAGES,
  POS_MESSAGES,
  type Role,
  MEMBER_API_PATHS,
} from '@kanak/contract';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../lib/errors.js';
import type { WindowCounter } from './rate-limit-store.js';
import type { Machine, Member, SessionStaff, SessionUser, StaffIdentity } from './types.js';

/** The largest user id: the users table's ids are PostgreSQL integers. */
const MAX_USER_ID = 2_147_483_647;

/** Leeway for a signing instance whose clock runs ahead of this one's. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * What a session token must carry, checked after its signature: an authentic token of another
 * shape (no expiry, a `sub` that is not a user id) is refused like a forged one, never reaches
 * a query.
 */
const sessionClaims = z
  .object({
    sub: z
      .string()
      .regex(/^[1-9][0-9]{0,9}$/)
      .refine((sub) => Number(sub) <= MAX_USER_ID),
    name: z.string(),
    /** The user's token version when signed; a password change or disable bumps it. */
    ver: z.number().int().nonnegative(),
    /** Opened with "Stay logged in": a renewed token keeps the long lifetime. */
    stay: z.boolean().optional(),
    /**
     * Random: every sign-in gets a token of its own, even two in the same second, and Logout
     * can end exactly this one. Absent from tokens signed before jtis were added.
     */
    jti: z.string().max(64).optional(),
    /** Expiry, seconds since 1970: a token without one would never end. */
    exp: z.number().int(),
    /** When it was signed, seconds since 1970: with `exp`, how long the session was given. */
    iat: z.number().int(),
  })
  // A session lives at most as long as its kind (12 hours, or 30 days with "Stay logged in"),
  // counted from a signing time that is not in the future: a token claiming a longer life was
  // not signed by us, however its signature checks out.
  .refine((claims) => {
    const lifetime =
      claims.stay === true ? LIMITS.tokenLifetimeStayLoggedInSeconds : LIMITS.tokenLifetimeSeconds;
    return (
      claims.exp - claims.iat <= lifetime && claims.iat <= Date.now() / 1000 + CLOCK_SKEW_SECONDS
    );
  });

type SessionClaims = z.infer<typeof sessionClaims>;

/** The audience of a customer's token: no staff token carries it. */
const MEMBER_AUDIENCE = 'kanak-member';

/** What a member token must carry, checked after its signature under the members' own key. */
const memberClaims = z
  .object({
    sub: z.string().regex(/^c[1-9][0-9]{0,9}$/),
    aud: z.literal(MEMBER_AUDIENCE),
    jti: z.uuid(),
    exp: z.number().int(),
    iat: z.number().int(),
  })
  .refine(
    (claims) =>
      claims.exp - claims.iat <= MEMBER_LIMITS.sessionLifetimeSeconds &&
      claims.iat <= Date.now() / 1000 + CLOCK_SKEW_SECONDS,
  );

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: Omit<SessionClaims, 'exp' | 'iat'>;
    user: SessionClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    signSessionToken(user: StaffIdentity & { tokenVersion: number }, stayLoggedIn: boolean): string;
    /** A customer's token for the session `jti` (its row made by the caller). */
    signMemberToken(customerId: number, jti: string): string;
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
  ): Promise<SessionUser | undefined>;
  /**
   * Resolves once every server has been told of the sessions a change just ended (see
   * session-cache.ts); a change that ends sessions answers after it.
   */
  sessionsCaughtUp?(): Promise<void>;
  /**
   * The customer of a member session that is open (not signed out, not expired, the customer
   * not erased); one query, as this runs on every member request.
   */
  findMemberSession(jti: string): Promise<number | undefined>;
  /** The API key with this SHA-256 when it exists and is not revoked; notes its use. */
  findApiKey(keyHash: string): Promise<Machine | undefined>;
  /** Wrong API keys per client address, in windows of `LIMITS.posWrongKeysWindowMinutes`. */
  wrongApiKeys: WindowCounter;
}

/** The routes only an API key opens (the POS's calls). */
const MACHINE_ROUTES = new Set(MACHINE_PATHS.map((name) => `${API_PREFIX}${API_PATHS[name]}`));
/** The routes only a customer's member token opens. */
const MEMBER_ROUTES = new Set(MEMBER_PATHS.map((name) => `${API_PREFIX}${MEMBER_API_PATHS[name]}`));

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** What a temporary password may do: see who it is, change itself, sign out. */
const OPEN_WITH_TEMPORARY_PASSWORD = new Set(
  [API_PATHS.me, API_PATHS.updateCurrentUser, API_PATHS.logout].map((path) => API_PREFIX + path),
);

/**
 * The calls that may end sessions: Logout, a staff member's new role or branch, a disabled
 * account, a password reset or changed.
 */
const ENDING_SESSIONS = new Set(
  [
    API_PATHS.logout,
    API_PATHS.staffUpdate,
    API_PATHS.staffDisable,
    API_PATHS.staffResetPassword,
    API_PATHS.updateCurrentUser,
  ].map((path) => API_PREFIX + path),
);

/** The roles the access matrix lets call each API route, by the route's path pattern. */
const ROLES_OF_ROUTE = new Map<string, readonly Role[]>(
  Object.entries(ACCESS).map(([name, roles]) => [
    `${API_PREFIX}${API_PATHS[name as keyof typeof ACCESS]}`,
    roles,
  ]),
);

const STAFF = Symbol('staff');
const MACHINE = Symbol('machine');
const MEMBER = Symbol('member');

/**
 * Every route needs a staff member's bearer token unless it declares itself public
 * (`config.public`). Which route a request reached is the router's answer, after it has
 * decoded the path: `/%61pi/...` or an absolute-form target reach the same route, and the same
 * rule, as `/api/...`. Requests that reach no route get the not-found answer and nothing else.
 */
export const authPlugin = fp<AuthOptions>(async (app, options) => {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256' },
    verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] },
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
      {
        // Seconds (@fastify/jwt's unit for a number).
        expiresIn: stayLoggedIn
          ? LIMITS.tokenLifetimeStayLoggedInSeconds
          : LIMITS.tokenLifetimeSeconds,
      },
    ),
  );

  // Customers' tokens are signed under a key of their own, drawn from the staff's: a member
  // token's signature fails on every staff route, and a staff token's on every member route,
  // whatever claims either carries.
  const memberKey = createHmac('sha256', options.secret).update('member-tokens').digest('hex');
  app.decorate('signMemberToken', (customerId: number, jti: string) =>
    app.jwt.sign(
      { sub: `c${customerId}`, jti } as never,
      {
        key: memberKey,
        aud: MEMBER_AUDIENCE,
        expiresIn: MEMBER_LIMITS.sessionLifetimeSeconds,
      } as never,
    ),
  );
  app.decorateRequest(MEMBER, null);
  app.decorateRequest('member', {
    getter(this: FastifyRequest) {
      const member = (this as unknown as Record<symbol, Member | null>)[MEMBER];
      if (!member) throw new UnauthorizedError(MEMBER_MESSAGES.sessionExpired);
      return member;
    },
  });
  const memberOf = async (request: FastifyRequest): Promise<Member> => {
    const header = request.headers.authorization ?? '';
    const token = /^Bearer ([A-Za-z0-9_.-]{1,4096})$/.exec(header)?.[1];
    if (!token) throw new UnauthorizedError(MEMBER_MESSAGES.sessionExpired);
    let claims: z.infer<typeof memberClaims>;
    try {
      claims = memberClaims.parse(
        app.jwt.verify(token, {
          key: memberKey,
          allowedAud: MEMBER_AUDIENCE,
          algorithms: ['HS256'],
        } as never),
      );
    } catch {
      throw new UnauthorizedError(MEMBER_MESSAGES.sessionExpired);
    }
    const customerId = await options.findMemberSession(claims.jti);
    if (customerId === undefined || `c${customerId}` !== claims.sub)
      throw new UnauthorizedError(MEMBER_MESSAGES.sessionExpired);
    return { customerId, jti: claims.jti };
  };

  // Read through a getter: a handler that asks for the caller where nobody signed in gets the
  // session answer (401), never a crash on a missing identity.
  app.decorateRequest(STAFF, null);
  app.decorateRequest('staff', {
    getter(this: FastifyRequest) {
      const staff = (this as unknown as Record<symbol, SessionStaff | null>)[STAFF];
      if (!staff) throw new UnauthorizedError(MESSAGES.sessionExpired);
      return staff;
    },
  });
  // Staff tokens whose signature this server has checked, each with its claims (see
  // verifiedClaims): this server's own, as its secret is.
  const verified = new Map<string, SessionClaims>();
  app.decorateRequest(MACHINE, null);
  app.decorateRequest('machine', {
    getter(this: FastifyRequest) {
      const machine = (this as unknown as Record<symbol, Machine | null>)[MACHINE];
      if (!machine) throw new UnauthorizedError(POS_MESSAGES.apiKeyRequired);
      return machine;
    },
  });
  const setStaff = (request: FastifyRequest, staff: SessionStaff) => {
    (request as unknown as Record<symbol, SessionStaff>)[STAFF] = staff;
  };

  // Every route that is not public is in the matrix, or the server does not start: a route
  // nobody placed there would be refused to every role. Checked once all routes are in, since
  // a scope may declare its routes public after this hook has seen them.
  const routes: {
    method: string | string[];
    url: string;
    config?: { public?: boolean; access?: keyof typeof ACCESS };
  }[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onReady', async () => {
    const unplaced = routes.filter(
      (r) =>
        !r.config?.public &&
        !r.config?.access &&
        !ROLES_OF_ROUTE.has(r.url) &&
        !MACHINE_ROUTES.has(r.url) &&
        !MEMBER_ROUTES.has(r.url),
    );
    if (unplaced.length > 0) {
      const names = unplaced.map((r) => `${[r.method].flat().join(',')} ${r.url}`).join('; ');
      throw new Error(`Routes neither public nor in the access matrix: ${names}`);
    }
  });

  // Its answer goes out once the sessions it ended are refused everywhere: the very next
  // request, to this server or another, is refused.
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (url !== undefined && ENDING_SESSIONS.has(url) && reply.statusCode < 400) {
      await options.sessionsCaughtUp?.();
    }
    return payload;
  });

  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions;
    if (route.url === undefined || route.config?.public) return;
    const apiKey = request.headers['x-api-key'];
    if (MEMBER_ROUTES.has(route.url)) {
      // A customer's call: their member token and nothing else.
      if (apiKey !== undefined) throw new UnauthorizedError(MEMBER_MESSAGES.sessionExpired);
      (request as unknown as Record<symbol, Member>)[MEMBER] = await memberOf(request);
      return;
    }
    if (MACHINE_ROUTES.has(route.url)) {
      // A machine's call: its key and nothing else; a staff token does not open it.
      if (apiKey === undefined) throw new UnauthorizedError(POS_MESSAGES.apiKeyRequired);
      // An address that sent too many wrong keys is refused until its window ends, before its
      // key is looked at: guessing keys goes no faster from there, even with a valid one among
      // the guesses. Counted in the database, so every instance shares the count.
      const wrongSoFar = await options.wrongApiKeys.current(request.ip);
      if (wrongSoFar.current >= LIMITS.posWrongKeysPerIp) throw tooManyWrongKeys(wrongSoFar.ttl);
      const machine =
        typeof apiKey === 'string' && /^kk_[A-Za-z0-9_-]{32,100}$/.test(apiKey)
          ? await options.findApiKey(hashApiKey(apiKey))
          : undefined;
      if (!machine) {
        // Wrong keys sent at once all pass the check above: their places in the window decide.
        const wrong = await options.wrongApiKeys.count(request.ip);
        if (wrong.current > LIMITS.posWrongKeysPerIp) throw tooManyWrongKeys(wrong.ttl);
        throw new UnauthorizedError(POS_MESSAGES.apiKeyRequired);
      }
      (request as unknown as Record<symbol, Machine>)[MACHINE] = machine;
      reply.log = request.log = request.log.child({ apiKey: machine.id });
      return;
    }
    // An API key opens only the POS's calls.
    if (apiKey !== undefined) throw new UnauthorizedError(POS_MESSAGES.apiKeyOnlyForPos);
    const claims = await verifiedClaims(request, verified);
    const stayLoggedIn = claims.stay === true;
    const user = await options.findSessionUser(Number(claims.sub), claims.ver, claims.jti);
    // A session that has ended (Logout, disabled, password changed or reset) is refused here,
    // before the idempotency plugin could send back a stored answer to one of its requests.
    if (!user) throw new UnauthorizedError(MESSAGES.sessionExpired);
    setStaff(request, { ...user, stayLoggedIn });
    const roles = route.config?.access
      ? ACCESS[route.config.access]
      : ROLES_OF_ROUTE.get(route.url);
    if (!roles?.includes(user.role)) {
      throw new ForbiddenError(MESSAGES.notAllowed);
    }
    if (user.mustChangePassword && !OPEN_WITH_TEMPORARY_PASSWORD.has(route.url)) {
      throw new ForbiddenError(MESSAGES.changeTemporaryPassword);
    }
    // Every later log line of this request, "request completed" included, names the user: who
    // read or changed what can be traced (ASVS 7.1.4, 8.3.5).
    reply.log = request.log = request.log.child({ user: request.staff.username });
  });
});

function tooManyWrongKeys(ttlMs: number) {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  return new TooManyRequestsError(POS_MESSAGES.tooManyWrongKeys(minutes));
}

/**
 * The token's claims once its signature and claims check out. A token checked before, and not
 * yet expired, is taken as checked (`verified`): a signed-in staff member sends the same token
 * with every request, and checking it again cost more than the rest of a search's work outside
 * the database. Whether its session is still open is asked on every request all the same.
 */
async function verifiedClaims(
  request: FastifyRequest,
  verified: Map<string, SessionClaims>,
): Promise<SessionClaims> {
  const token = /^Bearer ([A-Za-z0-9_.-]{1,4096})$/.exec(request.headers.authorization ?? '')?.[1];
  const known = token === undefined ? undefined : verified.get(token);
  if (known && known.exp * 1000 > Date.now()) {
    request.user = known;
    return known;
  }
  if (known) verified.delete(token!);
  let claims: SessionClaims;
  try {
    claims = sessionClaims.parse(await request.jwtVerify());
  } catch {
    throw new UnauthorizedError(MESSAGES.sessionExpired);
  }
  if (token !== undefined) {
    if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
  }
  return claims;
}

/** Checked tokens kept at most; the first checked is forgotten first. */
const VERIFIED_TOKENS = 10_000;
