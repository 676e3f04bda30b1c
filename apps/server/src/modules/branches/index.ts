/** What other modules may use of the branches module; the rest is its own. */
export { branchesRepo, toBranch } from './branches.repo.js';
export type { BranchRow, BranchesRepo } from './branches.repo.js';
