import type { ACCESS, Role } from '@kanak/contract';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (login and GET /api/app/*). */
    public?: boolean;
    /** Changes data: needs an Idempotency-Key, and a repeat gets the first response. */
    idempotent?: boolean;
    /**
     * What the replay store keeps of this change's answer for a repeat (routes marked
     * `idempotent`). Unset: the answer as sent, for answers that hold nothing personal or
     * secret (a message, an id, a balance).
     */
    replay?: ReplayRule;
    /**
     * The access matrix's entry for this route, where one path has two calls with different
     * roles (reading a list everyone may see, posting to it only managers). Unset: the entry
     * of the route's path.
     */
    access?: keyof typeof ACCESS;
  }
  interface FastifyRequest {
    /** The signed-in staff member; set by the auth plugin on every non-public route. */
    staff: SessionStaff;
    /** The machine (a counter's billing system) calling with an API key, on /api/pos/* only. */
    machine: Machine;
    /** The signed-in customer, on /api/member/* only. */
    member: Member;
  }
}

/**
 * How a repeat of a change is answered when its first answer may not be kept as it was sent.
 * Refusals (4xx) are kept as sent either way: they are the contract's messages, which name
 * no customer (no mobile number, no name), so a refusal holds nothing personal to keep.
 */
export type ReplayRule =
  /**
   * The answer shows a secret only once (a new API key, a temporary password, a fresh token):
   * nothing of it is kept, and a repeat is refused (409) with this message.
   */
  | { once: string }
  /**
   * The answer holds personal data: only what `keep` takes of it (ids, amounts) is kept, and
   * a repeat gets the answer that `reread` builds from that, read afresh. Made with
   * `reread()` (plugins/idempotency.ts).
   */
  | {
      keep: (answer: unknown, body: unknown) => unknown;
      reread: (kept: unknown) => Promise<unknown>;
    };

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
  /** The key's label, as the owner named it (e.g. "Counter 2"): who posted, on the Audit Trail. */
  label: string;
  branchId: number;
  branchCode: string;
}

/** A customer signed in with a one-time code: their id and the session's. */
export interface Member {
  customerId: number;
  jti: string;
}
