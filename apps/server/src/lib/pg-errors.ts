/** PostgreSQL and connection errors, seen through drizzle's wrapping (`cause`). */
const rootOf = (error: unknown) => (error as { cause?: unknown })?.cause ?? error;

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const { code, constraint: name } = rootOf(error) as { code?: string; constraint?: string };
  return code === '23505' && (constraint === undefined || name === constraint);
}

/** Codes that mean "the database cannot be reached now": refused, reset, shutting down, full. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** pg's own errors for a connection that cannot be made, or broke (even between queries). */
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|not queryable/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const candidate of [error, rootOf(error)]) {
    const { code, message } = (candidate ?? {}) as { code?: string; message?: string };
    if (code && UNAVAILABLE_CODES.has(code)) return true;
    if (UNAVAILABLE_MESSAGES.test(message ?? '')) return true;
  }
  return false;
}

/** Refusals at connect time: no statement was sent, so nothing can have been changed. */
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', '57P03', '53300']);
const NOT_CONNECTED_MESSAGES = /timeout exceeded when trying to connect|due to connection timeout/i;

/**
 * A connection that broke while in use: a change sent on it may or may not have been
 * committed (a COMMIT can succeed and its answer be lost), so nobody can say it was not made.
 */
export function isConnectionLostMidway(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  for (const candidate of [error, rootOf(error)]) {
    const { code, message } = (candidate ?? {}) as { code?: string; message?: string };
    if (code && NOT_CONNECTED_CODES.has(code)) return false;
    if (NOT_CONNECTED_MESSAGES.test(message ?? '')) return false;
  }
  return true;
}
