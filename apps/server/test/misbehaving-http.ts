import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What a fake (Tally, Razorpay, a WhatsApp provider) answers instead of its protocol's answer,
 * as a hostile or broken server at the configured address would:
 *   redirect: this status (307 keeps the method and the body) to `to`;
 *   stallBeforeHeaders: takes the request and never answers;
 *   stallAfterHeaders: answers 200 and a first piece, then nothing more;
 *   flood: 200 and this many bytes (Infinity: without end), as fast as the reader takes them.
 */
export type Misbehaviour =
  | { redirect: { status: 301 | 302 | 303 | 307 | 308; to: string } }
  | 'stallBeforeHeaders'
  | 'stallAfterHeaders'
  | { flood: number };

/** What happened to a misbehaving answer. */
export interface Misbehaved {
  how: Misbehaviour;
  /** Bytes of the answer's body written before the client closed the connection (or all). */
  bytesWritten: number;
  /** The client closed the connection before the answer was complete. */
  closedEarly: boolean;
}

/** Answers `response` as `how` says; settles when the answer ends or the client goes away. */
export async function misbehave(
  response: http.ServerResponse,
  how: Misbehaviour,
): Promise<Misbehaved> {
  const done: Misbehaved = { how, bytesWritten: 0, closedEarly: false };
  const gone = new Promise<void>((resolve) =>
    response.once('close', () => {
      done.closedEarly = !response.writableFinished;
      resolve();
    }),
  );
  if (how === 'stallBeforeHeaders') {
    await gone;
    return done;
  }
  if (how === 'stallAfterHeaders') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"sent":');
    done.bytesWritten = 8;
    await gone;
    return done;
  }
  if ('redirect' in how) {
    response.writeHead(how.redirect.status, { location: how.redirect.to });
    response.end();
    await gone;
    return done;
  }
  await writeLong(response, 200, how.flood, done);
  return done;
}

/**
 * Writes `bytes` of a JSON-looking answer in 64 KB pieces, waiting whenever the reader falls
 * behind (the fake's own memory stays flat); stops when the client closes the connection.
 */
export async function writeLong(
  response: http.ServerResponse,
  status: number,
  bytes: number,
  progress: { bytesWritten: number; closedEarly: boolean } = {
    bytesWritten: 0,
    closedEarly: false,
  },
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  const piece = Buffer.alloc(64 * 1024, 'x');
  let closed = false;
  response.once('close', () => {
    closed = true;
    progress.closedEarly = !response.writableFinished;
  });
  while (progress.bytesWritten < bytes && !closed && !response.destroyed) {
    const size = Math.min(piece.length, bytes - progress.bytesWritten);
    progress.bytesWritten += size;
    if (!response.write(piece.subarray(0, size)))
      await new Promise<void>((resolve) => {
        const go = () => {
          response.off('drain', go);
          response.off('close', go);
          resolve();
        };
        response.on('drain', go);
        response.on('close', go);
      });
  }
  if (!closed && !response.destroyed) await new Promise<void>((resolve) => response.end(resolve));
  return progress;
}

export interface Recorder {
  url: string;
  /** Every request that reached it, with its body. */
  readonly received: { method: string; url: string; body: string }[];
  close(): Promise<void>;
}

/** Another host, a redirect's target: records whatever reaches it (a test expects nothing). */
export async function startRecorder(): Promise<Recorder> {
  const received: Recorder['received'] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
