import type { Role } from '@kanak/contract';
import type { Config } from '../config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (login and GET /api/app/*). */
    public?: boolean;
    /** Changes data: needs an Idempotency-Key, and a repeat gets the first response. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in staff member; set by the auth plugin on every non-public route. */
    staff: SessionStaff;
  }
  interface FastifyInstance {
    config: Config;
  }
}

export interface StaffIdentity {
  id: number;
  username: string;
}

/** A signed-in staff member's account as the session check finds it. */
export interface SessionUser extends StaffIdentity {
  role: Role;
  /** Signed in with a temporary password: only changing it is allowed. */
  mustChangePassword: boolean;
}

/** The caller of a request: who, and whether the session was opened with "Stay logged in". */
export interface SessionStaff extends SessionUser {
  stayLoggedIn: boolean;
}
