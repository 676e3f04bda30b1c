/** What other modules may use of the whatsapp module (the official panel); the rest is its own. */
export type { WhatsAppService, RecordDelivery } from './whatsapp.service.js';
export type { GraphClient } from './graph.js';
