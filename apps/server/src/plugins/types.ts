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
    /** The machine (a counter's billing system) calling with an API key, on /api/pos/* only. */
    machine: Machine;
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
  /** The staff member's branch: what they record belongs to it. */
  branchId: number;
  /** Signed in with a temporary password: only changing it is allowed. */
  mustChangePassword: boolean;
  /** When their latest change was committed: reads right after it stay on the primary. */
  lastChangeAt: Date | null;
}

/** The caller of a request: who, and whether the session was opened with "Stay logged in". */
export interface SessionStaff extends SessionUser {
  stayLoggedIn: boolean;
}

/** Who records a change, and so the branch the recorded rows belong to. */
export interface StaffActor extends StaffIdentity {
  branchId: number;
}

/** A machine caller: its API key's id and the branch the key posts for. */
export interface Machine {
  id: number;
  branchId: number;
  branchCode: string;
}
