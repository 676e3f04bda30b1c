import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  misbehave,
  startRecorder,
  writeLong,
  type Misbehaved,
  type Misbehaviour,
  type Recorder,
} from '../../test/misbehaving-http.js';
import { callOutbound, OutboundError } from './outbound.js';

/**
 * The one way out of the server, against a real local server that answers as a hostile or
 * broken one would: a redirect to another host (which must receive nothing), an answer that
 * never starts or never ends, one without end or declaring 50 MB. Each is given up within the
 * call's time or size, and the server still answers a good call afterwards.
 */

const TIMEOUT_MS = 300;
const MAX_BYTES = 64 * 1024;
const limits = { timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES };

let server: http.Server;
let url: string;
let elsewhere: Recorder;
/** What the server does with the next request; undefined: answers `{"ok":true}`. */
let next: ((response: http.ServerResponse) => void) | undefined;
const misbehaved: Misbehaved[] = [];
const received: string[] = [];
const unheard: unknown[] = [];
const listenUnheard = (reason: unknown) => unheard.push(reason);

const answerWith = (how: Misbehaviour) => {
  next = (response) => void misbehave(response, how).then((what) => misbehaved.push(what));
};

beforeAll(async () => {
  elsewhere = await startRecorder();
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      const answer = next;
      next = undefined;
      if (answer) return answer(response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.on('unhandledRejection', listenUnheard);
});
afterAll(async () => {
  process.off('unhandledRejection', listenUnheard);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await elsewhere.close();
});
beforeEach(() => {
  misbehaved.length = 0;
  received.length = 0;
  elsewhere.received.length = 0;
  next = undefined;
});
afterEach(async () => {
  // Whatever went wrong, the server answers the next call as before.
  expect((await callOutbound(url, { method: 'GET' }, limits)).text).toBe('{"ok":true}');
  expect(unheard).toEqual([]);
});

/** The call's failure, and how long it took to fail. */
async function failing(call: Promise<unknown>) {
  const started = performance.now();
  const error = await call.then(
    () => expect.fail('the call should have failed'),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return { error: error as OutboundError, ms: performance.now() - started };
}

const post = (body = '{"custname":"Meena Pillai","mobile":"9846000001"}') =>
  callOutbound(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    limits,
  );

describe('an answer as it should be', () => {
  it('is read whole, with its status and headers, up to the cap exactly', async () => {
    next = (response) => {
      response.writeHead(201, { 'content-type': 'application/json', 'x-id': 'abc' });
      response.end('y'.repeat(MAX_BYTES));
    };
    const answer = await post();
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-id')).toBe('abc');
    expect(answer.text).toBe('y'.repeat(MAX_BYTES));
  });

  it('a refusal (4xx, 5xx) is an answer: its caller judges it', async () => {
    next = (response) => {
      response.writeHead(503);
      response.end('busy');
    };
    expect(await post()).toMatchObject({ status: 503, text: 'busy' });
  });
});

describe('a redirect is never followed', () => {
  for (const status of [301, 302, 303, 307, 308] as const) {
    it(`${status} to another host: a failure naming it, and the other host receives nothing`, async () => {
      answerWith({ redirect: { status, to: `${elsewhere.url}/stolen` } });
      const { error } = await failing(post());
      expect(error).toMatchObject({ failure: 'redirected', status });
      expect(error.message).not.toContain('127.0.0.1');
      expect(received).toHaveLength(1);
      // Followed, a 307 or 308 would have posted the same names and mobile there.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(elsewhere.received).toEqual([]);
    });
  }
});

describe('one deadline covers the connection, the headers and the whole answer', () => {
  it('no headers at all: given up at the timeout, and the connection closed', async () => {
    answerWith('stallBeforeHeaders');
    const { error, ms } = await failing(post());
    expect(error).toMatchObject({ failure: 'timeout', status: null });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
    await vi.waitFor(() => expect(misbehaved).toMatchObject([{ closedEarly: true }]));
  });

  it('headers and a first piece, then nothing: given up at the same timeout', async () => {
    answerWith('stallAfterHeaders');
    const { error, ms } = await failing(post());
    expect(error).toMatchObject({ failure: 'timeout', status: 200 });
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
    await vi.waitFor(() => expect(misbehaved).toMatchObject([{ closedEarly: true }]));
  });

  it('an answer that trickles, each piece in time but the whole too late: given up too', async () => {
    next = (response) => {
      response.writeHead(200);
      const drip = setInterval(() => response.write('x'), 50);
      response.once('close', () => clearInterval(drip));
    };
    const { error, ms } = await failing(post());
    expect(error).toMatchObject({ failure: 'timeout', status: 200 });
    expect(ms).toBeLessThan(TIMEOUT_MS + 1500);
  });
});

describe('an answer is read up to the cap, as it arrives', () => {
  it('an answer without end: cut at the cap, the connection closed, memory flat', async () => {
    answerWith({ flood: Number.POSITIVE_INFINITY });
    const heapBefore = process.memoryUsage().heapUsed;
    const { error, ms } = await failing(
      callOutbound(url, { method: 'GET' }, { timeoutMs: 10_000, maxBytes: 1024 * 1024 }),
    );
    expect(error).toMatchObject({ failure: 'tooLong', status: 200 });
    expect(ms).toBeLessThan(5000);
    await vi.waitFor(() => expect(misbehaved).toHaveLength(1));
    // What the server got out before the connection closed: the cap and the sockets' buffers.
    expect(misbehaved[0]).toMatchObject({ closedEarly: true });
    expect(misbehaved[0]!.bytesWritten).toBeLessThan(32 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
  });

  it('50 MB announced by Content-Length: refused before any of it is read', async () => {
    const fifty = 50 * 1024 * 1024;
    let written: Misbehaved | undefined;
    next = (response) =>
      void writeLong(
        response,
        200,
        fifty,
        { bytesWritten: 0, closedEarly: false },
        {
          'content-length': String(fifty),
        },
      ).then((what) => (written = { how: { flood: fifty }, ...what }));
    const { error } = await failing(post());
    expect(error).toMatchObject({ failure: 'tooLong', status: 200 });
    await vi.waitFor(() => expect(written).toMatchObject({ closedEarly: true }));
    expect(written!.bytesWritten).toBeLessThan(32 * 1024 * 1024);
  });
});

it('a server not listening: unreachable, with the network code and no address', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const { error } = await failing(
    callOutbound(`http://127.0.0.1:${port}/secret-token`, {}, limits),
  );
  expect(error).toMatchObject({ failure: 'unreachable', status: null, code: 'ECONNREFUSED' });
  expect(error.message).not.toContain('secret-token');
});
