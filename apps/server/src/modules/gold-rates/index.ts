/** What other modules may use of the gold-rates module; the rest is its own. */
export { goldRatesRepo } from './gold-rates.repo.js';
export type { GoldRatesRepo } from './gold-rates.repo.js';
