import { MESSAGES, type Role } from '@kanak/contract';
import { ForbiddenError } from './errors.js';

/** A staff member as far as branches go: their role decides how far their own branch reaches. */
export interface BranchStaff {
  role: Role;
  branchId: number;
}

/**
 * The branch whose rows a staff member may see and change: their own, except for the owner,
 * who runs every branch (undefined: all of them). Customers are the chain's, not a branch's.
 */
export function branchOf(staff: BranchStaff): number | undefined {
  return staff.role === 'owner' ? undefined : staff.branchId;
}

/** Refuses (403) a change to another branch's row, unless the owner makes it. */
export function assertOwnBranch(staff: BranchStaff, rowBranchId: number | null): void {
  const own = branchOf(staff);
  if (own !== undefined && rowBranchId !== own) throw new ForbiddenError(MESSAGES.notAllowed);
}
