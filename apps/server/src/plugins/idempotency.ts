import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHmac } from 'node:crypto';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_KEY_PATTERN, LIMITS, MESSAGES } from '@kanak/contract';
import { and, eq, getTableColumns, lt, sql } from 'drizzle-orm';
import { statementName, type Db } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { sha256 } from '../lib/crypto.js';
import { ConflictError, InvalidInputError } from '../lib/errors.js';
import { isConnectionLostMidway } from '../lib/pg-errors.js';
import type { ReplayRule } from './types.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

const REPLAY_HEADER = 'idempotent-replayed';

/**
 * Exactly-once changes for routes marked `idempotent`. The web client retries POSTs
 * after network errors, so a change whose response was lost may arrive again: the first call
 * claims (user, key); a repeat gets the stored first response and does no work.
 *
 * A claim whose request ended in a 5xx is released, so a retry can do the work — unless the
 * database connection broke midway, when the change may have been committed. That, and a
 * crash between the claim and the response being stored, leave the claim unfinished until it
 * expires — the change is never done twice. A retry meets 409 "still being processed" while
 * the first attempt may still be running, and 409 "interrupted, check" once no live request
 * can hold the claim any more. See docs/decisions.md.
 *
 * Only a live session gets a replay: the session check (plugins/auth.ts, onRequest) has passed
 * before the claim or the replay here, so a token ended by Logout, a disable or a password
 * change or reset reads nothing back. What is kept of an answer is the route's `replay` rule:
 * a secret shown once is not kept (a repeat is told so), and personal data is not kept but
 * read afresh from the ids that are.
 */
interface Options {
  db: Db;
  secret: string;
  /** Off behind a pooler that does not keep prepared statements (see statementName). */
  preparedStatements: boolean;
}

/**
 * A `reread` replay rule, typed by the route's answer, its request body and what it keeps. The
 * answer given to `keep` is the one sent (after the route's schema); the body is the validated
 * one.
 */
export function reread<Answer, Kept, Body = unknown>(
  keep: (answer: Answer, body: Body) => Kept,
  answer: (kept: Kept) => Promise<Answer>,
): ReplayRule {
  return {
    keep: keep as (answer: unknown, body: unknown) => unknown,
    reread: answer as (kept: unknown) => Promise<unknown>,
  };
}

export const idempotencyPlugin = fp<Options>(async (app, { db, secret, preparedStatements }) => {
  const ttl = sql`now() - make_interval(hours => ${LIMITS.idempotencyTtlHours})`;
  // Judged by the database's clock, which also stamped the claim.
  const interrupted = sql<boolean>`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${LIMITS.idempotencyInterruptedAfterSeconds})`;

  const keyOf = (request: FastifyRequest) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw new InvalidInputError(MESSAGES.idempotencyKeyRequired);
    }
    return key;
  };
  // Keyed: a body may hold an Aadhaar number, which a plain hash would let a database dump
  // recover by trying every number.
  // The route as matched, not the target as spelled: a retry that writes the path another way
  // is still the same request.
  const fingerprint = (request: FastifyRequest) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const target = `${request.routeOptions.url}${query}`;
    return createHmac('sha256', secret)
      .update(`${request.method} ${target} ${bodyFingerprint(request.body)}`)
      .digest('hex');
  };
  const mine = (userId: number, key: string) =>
    and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  // Claim and store run on every change: prepared, so they are built once and parsed and
  // planned once per connection. One statement claims a new key, and an expired one too
  // (reset to "in progress").
  const claim = db
    .insert(idempotencyKeys)
    .values({
      userId: sql.placeholder('userId'),
      key: sql.placeholder('key'),
      requestHash: sql.placeholder('requestHash'),
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: {
        requestHash: sql`excluded.request_hash`,
        statusCode: null,
        responseBody: null,
        createdAt: sql`now()`,
      },
      setWhere: lt(idempotencyKeys.createdAt, ttl),
    })
    .returning({ key: idempotencyKeys.key })
    .prepare(statementName('idempotency_claim', preparedStatements));
  const store = db
    .update(idempotencyKeys)
    .set({
      statusCode: sql`${sql.placeholder('statusCode')}`,
      responseBody: sql`${sql.placeholder('responseBody')}`,
    })
    .where(
      and(
        eq(idempotencyKeys.userId, sql.placeholder('userId')),
        eq(idempotencyKeys.key, sql.placeholder('key')),
      ),
    )
    .prepare(statementName('idempotency_store', preparedStatements));

  /** Sends the first response again, if this request is a repeat of a finished one. */
  const replay = async (request: FastifyRequest, reply: FastifyReply, key: string) => {
    const [first] = await db
      .select({ ...getTableColumns(idempotencyKeys), interrupted })
      .from(idempotencyKeys)
      .where(mine(request.staff.id, key));
    if (!first || first.requestHash !== fingerprint(request)) return 'different' as const;
    if (first.statusCode === null || first.responseBody === null) {
      return first.interrupted ? ('interrupted' as const) : ('in-progress' as const);
    }
    const rule = request.routeOptions.config?.replay;
    if (!rule || first.statusCode >= 400) {
      await reply
        .code(first.statusCode)
        .header(REPLAY_HEADER, 'true')
        .type('application/json; charset=utf-8')
        .send(first.responseBody);
    } else if ('once' in rule) {
      throw new ConflictError(rule.once);
    } else {
      const answer = await rule.reread(JSON.parse(first.responseBody));
      await reply.code(first.statusCode).header(REPLAY_HEADER, 'true').send(answer);
    }
    return 'replayed' as const;
  };

  // After validation: invalid input is refused before any claim is made, and changes nothing.
  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const key = keyOf(request);
    const userId = request.staff.id;
    const claimed = await claim.execute({ userId, key, requestHash: fingerprint(request) });
    if (claimed.length > 0) {
      request.idempotencyKey = key;
      return;
    }
    const outcome = await replay(request, reply, key);
    if (outcome === 'different') throw new ConflictError(MESSAGES.idempotencyKeyReused);
    if (outcome === 'in-progress') throw new ConflictError(MESSAGES.idempotencyInProgress);
    if (outcome === 'interrupted') throw new ConflictError(MESSAGES.idempotencyInterrupted);
  });

  // Before the error handler turns it into a 503, which invites a retry: after a broken
  // connection nobody knows whether the change was committed, so the claim is left "in
  // progress" (a retry is refused, then told to check) rather than released for a second go.
  app.addHook('onError', async (request, _reply, error) => {
    if (isConnectionLostMidway(error)) request.idempotencyKey = undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    const userId = request.staff.id;
    try {
      if (reply.statusCode >= 500 || typeof payload !== 'string') {
        await db.delete(idempotencyKeys).where(mine(userId, key));
      } else {
        const responseBody = kept(request.routeOptions.config?.replay, request, reply, payload);
        await store.execute({ userId, key, statusCode: reply.statusCode, responseBody });
      }
    } catch (error) {
      // The database went away after the work: the answer is still the truth, so it goes
      // out. The claim stays "in progress", as after a crash: a retry is refused, not redone.
      request.log.warn({ err: error }, 'idempotency record not completed');
    }
    return payload;
  });

  const sweep = setInterval(
    () => {
      db.delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, ttl))
        .catch((error: unknown) => app.log.warn({ err: error }, 'idempotency sweep failed'));
    },
    60 * 60 * 1000,
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
});

/**
 * What the replay store keeps of an answer: all of it, unless the route's rule says the answer
 * holds a secret (nothing) or personal data (what `keep` takes of it). Refusals are kept whole:
 * their messages name no customer.
 */
function kept(
  rule: ReplayRule | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: string,
): string {
  if (!rule || reply.statusCode >= 400) return payload;
  if ('once' in rule) return '';
  return JSON.stringify(rule.keep(JSON.parse(payload), request.body));
}

/** JSON bodies are compared whole; multipart bodies by their fields and files' digests. */
function bodyFingerprint(body: unknown): string {
  return JSON.stringify(body ?? null, (_key, value: unknown) =>
    Buffer.isBuffer(value) ? sha256(value) : value,
  );
}
