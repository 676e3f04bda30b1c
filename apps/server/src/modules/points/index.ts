/** What other modules may use of the points module; the rest is its own. */
export { expireDueLots } from './points.expiry.js';
export type { PointsRepo } from './points.repo.js';
export {
  EXPIRY_WARNING_DAYS,
  pointsMovementByMonth,
  pointsOfDay,
  pointsSummaryReader,
} from './points.summary.js';
export type { PointsSummaryReader } from './points.summary.js';
export type { PointsAccountsRepo } from './points.ledger.js';
export { postInBulk, postOpenings } from './points.ledger.js';
export type { BulkPosting, Opening } from './points.ledger.js';
export { checkLedger } from './points.ledger-check.js';
