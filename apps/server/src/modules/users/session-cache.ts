import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../db/client.js';
import { within } from '../../lib/within.js';
import type { SessionUser } from '../../plugins/types.js';

/** The channel the session triggers of the users and ended_sessions tables notify on. */
export const SESSIONS_CHANNEL = 'kanak_sessions';

/** Sessions kept at most; the oldest checked goes first. A shop has a few dozen staff. */
const MAX_SESSIONS = 10_000;
/** How often the listening connection is proved to deliver: a notice sent and heard back. */
const HEARTBEAT_MS = 5_000;
/** A notice not heard back within this long means the listening connection is lost. */
const HEARD_WITHIN_MS = 3_000;
/** Waits before connecting again after the listening connection was lost, growing to the last. */
const RECONNECT_MS = [250, 1_000, 5_000];

type FindSessionUser = (
  id: number,
  tokenVersion: number,
  jti: string | undefined,
) => Promise<SessionUser | undefined>;

export interface SessionCache {
  /**
   * The session's user, as `check` answers it: from memory once checked, while this server
   * hears every session notice; from the database on every call while it does not.
   */
  find: FindSessionUser;
  /**
   * Resolves once this server has heard every session notice committed before the call
   * (notices arrive in commit order): a change that ended sessions answers after its own
   * server has forgotten them, and by then PostgreSQL has told every other server too.
   */
  caughtUp(): Promise<void>;
  /** True while sessions are kept in memory: the listening connection is up and proved. */
  readonly listening: boolean;
  close(): Promise<void>;
}

interface Kept {
  staffId: number;
  jti: string;
  user: SessionUser;
}

/**
 * Validated sessions kept in memory, so that a request costs no database round trip to check
 * its session, while a session ended anywhere (Logout, a disabled account, a password set, a
 * new role or branch, on any server or from `npm run users`) ends on every server at once:
 * the database's triggers notify SESSIONS_CHANNEL in the ending transaction, and every server
 * LISTENs on a connection of its own, straight to PostgreSQL (a pooler in transaction mode
 * would hand LISTEN's session to others). Fails closed: until that connection is up and has
 * carried a notice of our own, and whenever it is lost, nothing is kept and every request
 * asks the database. Without `listenUrl`, always so.
 */
export function createSessionCache({
  check,
  listenUrl,
  db,
  log,
  heartbeatMs = HEARTBEAT_MS,
}: {
  check: FindSessionUser;
  /** A direct connection to the database that `db` reaches, not through a pooler. */
  listenUrl: string | undefined;
  /** The app's own connections: the heartbeat's notice goes the way the triggers' do. */
  db: Db;
  log: FastifyBaseLogger;
  heartbeatMs?: number;
}): SessionCache {
  const kept = new Map<string, Kept>();
  /** Moves on whenever something may have ended: a check begun before it is not kept. */
  let generation = 0;
  let listener: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let failures = 0;
  let reconnect: NodeJS.Timeout | undefined;
  const awaited = new Map<string, () => void>();

  const forgetAll = () => {
    generation++;
    kept.clear();
  };
  const forget = (matches: (session: Kept) => boolean) => {
    generation++;
    for (const [key, session] of kept) if (matches(session)) kept.delete(key);
  };

  function heard(payload: string) {
    const [kind, value = ''] = payload.split(/:(.*)/s);
    if (kind === 'ping') awaited.get(value)?.();
    else if (kind === 'staff') forget((session) => session.staffId === Number(value));
    else if (kind === 'session') forget((session) => session.jti === value);
    else forgetAll();
  }

  /**
   * Sends a notice of our own through the app's connections and waits to hear it back, the
   * sending included: a database too slow to carry the notice within the limit is as lost as
   * a connection that dropped it. The deadline and the round trip race as one promise
   * (`within`), so whichever loses is still listened to (a stalled database can answer long
   * after).
   */
  async function roundTrip() {
    const nonce = randomUUID();
    const heardBack = new Promise<void>((resolve) => awaited.set(nonce, resolve));
    const sentAndHeard = db
      .execute(sql`SELECT pg_notify(${SESSIONS_CHANNEL}, ${`ping:${nonce}`})`)
      .then(() => heardBack);
    try {
      await within(sentAndHeard, HEARD_WITHIN_MS);
    } finally {
      awaited.delete(nonce);
    }
  }

  function lost(client: pg.Client, error?: unknown) {
    if (client !== listener) return;
    listener = undefined;
    if (listening) {
      log.warn(
        { err: error },
        'sessions: the listening connection is lost; every request checks its session in the database until it is back',
      );
    }
    listening = false;
    forgetAll();
    client.end().catch(() => undefined);
    scheduleConnect();
  }

  function scheduleConnect() {
    if (closed) return;
    const wait = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]!;
    reconnect = setTimeout(() => void connect(), wait);
    reconnect.unref();
  }

  async function connect() {
    if (closed || !listenUrl) return;
    const client = new pg.Client({
      connectionString: listenUrl,
      application_name: 'kanak-sessions',
      keepAlive: true,
    });
    listener = client;
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    client.on('notification', (notice) => {
      if (notice.channel === SESSIONS_CHANNEL) heard(notice.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSIONS_CHANNEL}`);
      await roundTrip();
    } catch (error) {
      failures++;
      if (failures === 1) log.warn({ err: error }, 'sessions: cannot listen for ended sessions');
      lost(client, error);
      return;
    }
    if (client !== listener || closed) return;
    failures = 0;
    forgetAll();
    listening = true;
  }

  const heartbeat = setInterval(() => {
    const client = listener;
    if (client && listening) roundTrip().catch((error: unknown) => lost(client, error));
  }, heartbeatMs);
  heartbeat.unref();
  void connect();

  return {
    async find(id, tokenVersion, jti) {
      if (!listening) return check(id, tokenVersion, jti);
      const key = `${id}/${tokenVersion}/${jti ?? ''}`;
      const session = kept.get(key);
      if (session) return session.user;
      const before = generation;
      const user = await check(id, tokenVersion, jti);
      // Kept only if nothing ended meanwhile: a notice heard while the check ran may be of
      // this very session, read by the check just before it ended.
      if (user && listening && before === generation) {
        if (kept.size >= MAX_SESSIONS) kept.delete(kept.keys().next().value!);
        kept.set(key, { staffId: id, jti: jti ?? '', user });
      }
      return user;
    },
    async caughtUp() {
      const client = listener;
      if (!client || !listening) return;
      await roundTrip().catch((error: unknown) => lost(client, error));
    },
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(reconnect);
      listening = false;
      forgetAll();
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
