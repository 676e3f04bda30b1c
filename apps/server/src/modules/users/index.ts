/** What other modules may use of the users module; the rest is its own. */
export type { UsersService } from './users.service.js';
