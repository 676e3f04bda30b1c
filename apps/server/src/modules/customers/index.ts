/** What other modules may use of the customers module; the rest is its own. */
export { customersRepo } from './customers.repo.js';
export type { CustomersRepo } from './customers.repo.js';
export { toConsents, toRecord } from './customers.service.js';
export type { CustomersService } from './customers.service.js';
export { customersImport } from './customers.import.js';
