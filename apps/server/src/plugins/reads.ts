import fp from 'fastify-plugin';
import type { Reads } from '../db/reads.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the reports read (db/reads.ts); the routes are handed it, tests check it. */
    reads: Reads;
  }
}

/**
 * With a reports replica, a staff member's change is noted before its answer goes out: their
 * statements then read the primary until the replica has it too. Every change goes through
 * the idempotency claim, which leaves its key on the request once the work may be done.
 */
export const readsPlugin = fp<{ reads: Reads; noteChange(staffId: number): Promise<void> }>(
  async (app, { reads, noteChange }) => {
    app.decorate('reads', reads);
    app.addHook('onClose', () => reads.close());
    if (!reads.replicated) return;
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.idempotencyKey && reply.statusCode < 400) {
        await noteChange(request.staff.id).catch((error: unknown) =>
          // The change is made and its answer still the truth; only the very next statement
          // may come from a replica that lacks it.
          request.log.warn({ err: error }, 'reports replica: a change could not be noted'),
        );
      }
      return payload;
    });
  },
);
