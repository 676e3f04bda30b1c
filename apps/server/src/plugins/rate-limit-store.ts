import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rateLimitHits } from '../db/schema.js';

export interface Count {
  /** This request's place in the window: above the route's maximum, it is refused. */
  current: number;
  /** Milliseconds until the window ends (the Retry-After of a refusal). */
  ttl: number;
}

/**
 * Counts a request in one statement: the row of (route, key) is created, or counted on, or
 * started afresh when its window has ended. Concurrent requests through any number of
 * instances queue on the row and each gets its own place, so a limit of 20 lets exactly 20
 * through, never 20 per instance.
 */
async function count(db: Db, key: string, windowMs: number): Promise<Count> {
  const ended = sql`rate_limit_hits.window_ends_at <= now()`;
  const result = await db.execute<{ hits: number; ttl: number }>(sql`
    INSERT INTO rate_limit_hits (key, hits, window_ends_at)
    VALUES (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN ${ended} THEN 1
                  ELSE least(rate_limit_hits.hits::bigint + 1, 2147483647) END,
      window_ends_at = CASE WHEN ${ended} THEN excluded.window_ends_at
                            ELSE rate_limit_hits.window_ends_at END
    RETURNING hits, ceil(extract(epoch FROM window_ends_at - now()) * 1000)::int AS ttl`);
  const row = result.rows[0]!;
  return { current: Number(row.hits), ttl: Math.max(0, Number(row.ttl)) };
}

/** The count of `key` in its current window; zero once the window has ended. */
async function current(db: Db, key: string): Promise<Count> {
  const result = await db.execute<{ hits: number; ttl: number }>(sql`
    SELECT hits, ceil(extract(epoch FROM window_ends_at - now()) * 1000)::int AS ttl
      FROM rate_limit_hits WHERE key = ${key} AND window_ends_at > now()`);
  const row = result.rows[0];
  return row
    ? { current: Number(row.hits), ttl: Math.max(0, Number(row.ttl)) }
    : { current: 0, ttl: 0 };
}

/**
 * Counts events of one kind per subject (say, wrong API keys per address) in fixed windows,
 * in the same table as the rate limits: every instance shares the count.
 */
export interface WindowCounter {
  /** Counts one more event; answers its place in the window. */
  count(subject: string): Promise<Count>;
  /** The events so far in the current window, without counting one. */
  current(subject: string): Promise<Count>;
}

export function windowCounter(db: Db, kind: string, windowMs: number): WindowCounter {
  return {
    count: (subject) => count(db, `${kind} ${subject}`, windowMs),
    current: (subject) => current(db, `${kind} ${subject}`),
  };
}

/**
 * The store of @fastify/rate-limit kept in PostgreSQL, so that a route's limit (sign-ins per
 * address, password checks per user) holds across every instance on the database rather than
 * per instance. Each route counts apart: its method and address lead the key.
 */
export function postgresRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    /** The plugin makes the first from its options; `child` makes each route's own. */
    constructor(
      _options?: unknown,
      private readonly route = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: Count) => void,
      timeWindow: number,
    ): void {
      count(db, `${this.route}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      // The plugin hands the route's options in as `routeInfo` (its own Redis store reads them
      // the same way); its type declarations do not say so.
      const { routeInfo } = routeOptions as { routeInfo?: { method?: unknown; url?: string } };
      return new PostgresRateLimitStore(
        undefined,
        `${String(routeInfo?.method ?? '')} ${routeInfo?.url ?? ''} `,
      );
    }
  }
  return PostgresRateLimitStore;
}

/** Deletes the counts whose window has ended: they would start afresh anyway. */
export async function sweepRateLimits(db: Db): Promise<void> {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.windowEndsAt, sql`now()`));
}
