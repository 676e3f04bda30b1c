/** PostgreSQL error codes we turn into business answers. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = (error as { cause?: unknown }).cause ?? error;
  const { code, constraint: name } = pgError as { code?: string; constraint?: string };
  return code === '23505' && (constraint === undefined || name === constraint);
}
