import http from 'node:http';
import net from 'node:net';
import { IDEMPOTENCY_HEADER } from '@kanak/contract';

/**
 * Loopback proxies for the fault tests: one that loses answers on their way back to the
 * client, one that can take the database away and bring it back.
 */

export interface DroppingProxy {
  url: string;
  /** Requests that reached the server, answers cut off, and attempts per Idempotency-Key. */
  stats: {
    requests: number;
    dropped: number;
    replayed: number;
    attemptsByKey: Map<string, number>;
    droppedByKey: Map<string, number>;
  };
  close(): Promise<void>;
}

/**
 * Forwards every request to `target`. For the requests `drop` picks (by their number, from 1)
 * it waits until the server has answered in full, then destroys the client's connection
 * instead of passing the answer on: the change is made, and the client never hears of it.
 * With `beforeAnswer` it destroys the client's connection while the server is still at work.
 */
export async function startDroppingProxy(
  target: string,
  options: { drop(request: number): boolean; beforeAnswer?: boolean },
): Promise<DroppingProxy> {
  const stats: DroppingProxy['stats'] = {
    requests: 0,
    dropped: 0,
    replayed: 0,
    attemptsByKey: new Map(),
    droppedByKey: new Map(),
  };
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      stats.requests += 1;
      const drop = options.drop(stats.requests);
      const key = String(request.headers[IDEMPOTENCY_HEADER.toLowerCase()] ?? '');
      if (key) count(stats.attemptsByKey, key);
      const headers = { ...request.headers, host: new URL(target).host };
      const upstream = http.request(
        `${target}${request.url}`,
        { method: request.method, headers },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            if (answer.headers['idempotent-replayed']) stats.replayed += 1;
            if (drop) {
              if (!options.beforeAnswer) cutOff();
              return;
            }
            const { connection: _c, 'transfer-encoding': _t, ...passed } = answer.headers;
            response.writeHead(answer.statusCode ?? 502, passed);
            response.end(Buffer.concat(body));
          });
        },
      );
      const cutOff = () => {
        stats.dropped += 1;
        if (key) count(stats.droppedByKey, key);
        request.socket.destroy();
      };
      upstream.on('error', () => request.socket.destroy());
      upstream.end(Buffer.concat(chunks));
      // Long enough for the request to reach the server, which is then still at work.
      if (drop && options.beforeAnswer) setTimeout(cutOff, 100);
    });
  });
  const port = await listen(server, 0);
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () => closeServer(server),
  };
}

export interface TcpRelay {
  port: number;
  /** Closes the listener and destroys every open connection: the database is gone. */
  cut(): Promise<void>;
  /** Listens again on the same port: the database is back. */
  restore(): Promise<void>;
  /**
   * Holds every byte both ways, on open connections and new ones alike, as a database whose
   * processes are stopped (SIGSTOP) would: connections stay open and nothing answers.
   */
  stall(): void;
  /** Delivers what was held, in order, and relays as before. */
  resume(): void;
  close(): Promise<void>;
}

/** A TCP relay from a loopback port to `target`, e.g. between the server and PostgreSQL. */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  let stalled = false;
  /** The writes held while stalled, in the order their bytes arrived. */
  let held: (() => void)[] = [];
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  };
  const relay = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };

  let server = net.createServer(relay);
  const port = await listen(server, 0);
  let open = true;
  const cut = async () => {
    if (!open) return;
    open = false;
    const closed = closeServer(server);
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut,
    async restore() {
      if (open) return;
      server = net.createServer(relay);
      await listen(server, port);
      open = true;
    },
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
      const writes = held;
      held = [];
      for (const write of writes) write();
    },
    close: cut,
  };
}

function listen(server: net.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if (server instanceof http.Server) server.closeAllConnections();
  });
}

/** A relay in front of the database at `url`, and the address that reaches it through the relay. */
export async function relayTo(url: string): Promise<{ relay: TcpRelay; url: string }> {
  const target = new URL(url);
  const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  const through = new URL(url);
  through.host = `127.0.0.1:${relay.port}`;
  return { relay, url: through.toString() };
}
