import type { FastifyBaseLogger } from 'fastify';

/** The log line of a promise that rejected with nobody listening; the fault tests look for it. */
export const UNHEARD_REJECTION = 'a promise rejected with nobody listening';

/**
 * Logs a promise that rejected with nobody listening instead of letting Node end the process.
 * Such a rejection comes from a timer or callback outside any request (a request's own
 * failures reach the error handler), and every change is a committed transaction or none:
 * ending the process would take every counter down with nothing to restart it, for a defect
 * that harmed no data. It stays a defect: the tests fail on the line this writes.
 */
export function logUnheardRejections(log: Pick<FastifyBaseLogger, 'error'>): void {
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, UNHEARD_REJECTION));
}
