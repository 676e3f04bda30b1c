/** What other modules may use of the data-rights module; the rest is its own. */
export type { DataRightsService } from './data-rights.service.js';
