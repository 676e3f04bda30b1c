/** What other modules may use of the messaging module; the rest is its own. */
export type { MessagingRepo } from './messaging.repo.js';
export type { MessagingService } from './messaging.service.js';
