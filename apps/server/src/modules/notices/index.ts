/** What other modules may use of the notices module; the rest is its own. */
export type { NoticesRepo } from './notices.repo.js';
export { sendWhatsApp } from './providers.js';
