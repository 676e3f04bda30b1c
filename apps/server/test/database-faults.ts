import { randomUUID } from 'node:crypto';
import { API_PATHS } from '@kanak/contract';
import { createTestDatabase, type TestDatabase } from './helpers.js';
import {
  addCustomer,
  post,
  signIn,
  startServer,
  storeToday,
  tempDir,
  type Answer,
  type ServerProcess,
} from './processes.js';
import { relayTo, type TcpRelay } from './proxies.js';

/** A server process on a fresh database it reaches only through a relay the test controls. */
export interface ServerBehindRelay {
  db: TestDatabase;
  relay: TcpRelay;
  server: ServerProcess;
  /** The owner's session on that server. */
  token: string;
  /** Stops the server, then the relay, then drops the database. */
  close(): Promise<void>;
}

/** Starts it, signed in, with each of `customers` (mobile → name) added. */
export async function serverBehindRelay(
  folderPrefix: string,
  customers: Record<string, string>,
): Promise<ServerBehindRelay> {
  const db = await createTestDatabase();
  const { relay, url: viaRelayUrl } = await relayTo(db.url);
  const dir = tempDir(folderPrefix);
  const server = await startServer({
    dataDir: dir.path,
    env: { DATABASE_URL: viaRelayUrl },
  });
  const token = await signIn(server.url);
  for (const [mobileno, name] of Object.entries(customers))
    await addCustomer(server.url, token, mobileno, name);
  return {
    db,
    relay,
    server,
    token,
    async close() {
      relay.resume();
      await server.stop();
      await relay.close();
      await db.drop();
      dir.remove();
    },
  };
}

/** Credits `points` to `mobileno` as the counter does, dated today, with its own key. */
export const creditPoints = (
  at: Pick<ServerBehindRelay, 'server' | 'token'>,
  mobileno: string,
  points: number,
  narration: string,
  timeoutMs?: number,
): Promise<Answer> =>
  post(
    at.server.url,
    API_PATHS.updatePoints,
    {
      formData: {
        MOBILENO: mobileno,
        POINTS: String(points),
        CASHCR: 'CR',
        INVDATE: storeToday(),
        NARRATION: narration,
      },
    },
    { token: at.token, idempotencyKey: randomUUID(), timeoutMs },
  );
