import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { writeLong } from './misbehaving-http.js';

/**
 * A local stand-in for the three WhatsApp providers, a real HTTP server on 127.0.0.1 speaking
 * each panel's protocol as the server's providers send it:
 *   Panel 1: POST /{instanceId}/messages/chat { token, to: "+91…", body } → { sent: "true", id }
 *   Panel 2: POST /waInstance{instanceId}/sendMessage/{token} { chatId: "91…@c.us", message }
 *            → { idMessage }
 *   Panel 3: GET /api/send?number=91…&type=text&message=…&instance_id=…&access_token=…
 *            → { status: "success" }
 * Every message it receives is recorded, with what it answered. What it answers is scriptable
 * per call (`next`) or per number (`forNumber`): success, a refusal with any status (401, 500),
 * a 429 with Retry-After, a hang past the sender's timeout (before or after the headers), any
 * answer with any headers (a redirect), or an answer of many megabytes or without end. Its
 * refusals echo the token, as careless providers do, so tests can see that the token never
 * reaches a log or a reason.
 *
 * Used by the server's tests, the e2e run's global setup and the bench, in their own process,
 * or from other processes through GET /_fake/messages and POST /_fake/reset. Alone:
 * `npx tsx apps/server/test/fake-whatsapp.ts [port]` prints its address and runs until stopped.
 */

export type FakeReply =
  | 'success'
  | 'hang'
  /** 200 and the start of an answer, then nothing more: the connection stays open. */
  | 'hangAfterHeaders'
  /** This status with a refusal in the panel's own words (a 429 says when to come back). */
  | { status: number; retryAfter?: string }
  /** Exactly this answer, with these headers (a redirect's Location). */
  | { status: number; body: string; headers?: Record<string, string> }
  /**
   * A JSON answer this many bytes long (Infinity: without end), written in 64 KB pieces as the
   * reader takes them.
   */
  | { status: number; bytes: number };

export interface FakeMessage {
  panel: 1 | 2 | 3;
  instanceId: string;
  token: string;
  /** The 10-digit mobile number the message was for. */
  mobile: string;
  text: string;
  /** What the fake answered: a status, or 'hang' (either hang). */
  answered: number | 'hang';
  at: number;
  /** A long answer: the sender closed the connection before the fake had written it all. */
  cutShort?: boolean;
}

export interface FakeWhatsApp {
  /** The base address, for MESSAGING_PANEL1_URL, …2_URL and …3_URL alike. */
  url: string;
  /** Every message received, in order. */
  readonly messages: FakeMessage[];
  /** Every request received, as `METHOD /path?query`, whether or not it was a message. */
  readonly requests: string[];
  /** The messages it accepted (answered 2xx). */
  delivered(): FakeMessage[];
  /** The next calls' answers, in order; after them, the per-number or default answer. */
  next(...replies: FakeReply[]): void;
  /** Every call for this number gets this answer until reset. */
  forNumber(mobile: string, reply: FakeReply): void;
  /** Called with each message as it arrives, before the fake answers. */
  onMessage(listener: ((message: FakeMessage) => void | Promise<void>) | undefined): void;
  /** Forgets the messages and the scripts. */
  reset(): void;
  close(): Promise<void>;
}

const json = (response: http.ServerResponse, status: number, body: unknown, headers = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
};

async function readBody(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const digitsOf = (value: unknown) =>
  String(value ?? '')
    .replace(/^\+?91/, '')
    .replace(/@c\.us$/, '');

/** The message a request carries, in whichever panel's protocol; undefined if none. */
async function messageOf(
  request: http.IncomingMessage,
): Promise<Omit<FakeMessage, 'answered' | 'at'> | undefined> {
  const url = new URL(request.url ?? '/', 'http://fake');
  const panel1 = /^\/([^/]+)\/messages\/chat$/.exec(url.pathname);
  const panel2 = /^\/waInstance([^/]+)\/sendMessage\/([^/]+)$/.exec(url.pathname);
  if (request.method === 'POST' && panel1) {
    const body = await readBody(request);
    return {
      panel: 1,
      instanceId: decodeURIComponent(panel1[1]!),
      token: String(body.token ?? ''),
      mobile: digitsOf(body.to),
      text: String(body.body ?? ''),
    };
  }
  if (request.method === 'POST' && panel2) {
    const body = await readBody(request);
    return {
      panel: 2,
      instanceId: decodeURIComponent(panel2[1]!),
      token: decodeURIComponent(panel2[2]!),
      mobile: digitsOf(body.chatId),
      text: String(body.message ?? ''),
    };
  }
  if (request.method === 'GET' && url.pathname === '/api/send') {
    const q = url.searchParams;
    return {
      panel: 3,
      instanceId: q.get('instance_id') ?? '',
      token: q.get('access_token') ?? '',
      mobile: digitsOf(q.get('number')),
      text: q.get('message') ?? '',
    };
  }
  return undefined;
}

let sent = 0;

/** Each panel's "done". */
function success(panel: 1 | 2 | 3) {
  const id = `fake-${++sent}`;
  if (panel === 1) return { sent: 'true', message: 'ok', id };
  if (panel === 2) return { idMessage: id };
  return { status: 'success', message: 'Message sent', message_id: id };
}

/** Each panel's refusal, naming the token it was given (as careless providers do). */
function refusal(panel: 1 | 2 | 3, status: number, token: string) {
  const why = status === 401 ? `wrong token ${token}` : `error ${status} for token ${token}`;
  if (panel === 1) return { error: why };
  if (panel === 2) return { message: why };
  return { status: 'error', message: why };
}

export async function startFakeWhatsApp(port = 0): Promise<FakeWhatsApp> {
  const messages: FakeMessage[] = [];
  const requests: string[] = [];
  let scripted: FakeReply[] = [];
  let byNumber = new Map<string, FakeReply>();
  let listener: ((message: FakeMessage) => void | Promise<void>) | undefined;
  const sockets = new Set<Socket>();

  const server = http.createServer((request, response) => {
    void (async () => {
      if (request.url === '/_fake/messages' && request.method === 'GET')
        return json(response, 200, messages);
      if (request.url === '/_fake/reset' && request.method === 'POST') {
        fake.reset();
        return json(response, 200, { ok: true });
      }
      requests.push(`${request.method} ${request.url}`);
      const message = await messageOf(request);
      if (!message) return json(response, 404, { error: 'no such call' });
      const reply = scripted.shift() ?? byNumber.get(message.mobile) ?? 'success';
      const status =
        reply === 'success'
          ? 200
          : reply === 'hang' || reply === 'hangAfterHeaders'
            ? 'hang'
            : reply.status;
      const recorded: FakeMessage = { ...message, answered: status, at: Date.now() };
      messages.push(recorded);
      await listener?.(recorded);
      if (reply === 'hang') return; // the socket stays open until the sender gives up
      if (reply === 'hangAfterHeaders') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"sent":');
        return;
      }
      if (reply === 'success') return json(response, 200, success(message.panel));
      if ('body' in reply) return json(response, reply.status, reply.body, reply.headers);
      if ('bytes' in reply) {
        recorded.cutShort = (await writeLong(response, reply.status, reply.bytes)).closedEarly;
        return;
      }
      return json(
        response,
        reply.status,
        refusal(message.panel, reply.status, message.token),
        reply.retryAfter === undefined ? {} : { 'retry-after': reply.retryAfter },
      );
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;

  const fake: FakeWhatsApp = {
    url: `http://127.0.0.1:${address.port}`,
    messages,
    requests,
    delivered: () => messages.filter((m) => typeof m.answered === 'number' && m.answered < 300),
    next: (...replies) => {
      scripted.push(...replies);
    },
    forNumber: (mobile, reply) => {
      byNumber.set(mobile, reply);
    },
    onMessage: (given) => {
      listener = given;
    },
    reset: () => {
      messages.length = 0;
      requests.length = 0;
      scripted = [];
      byNumber = new Map();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fake = await startFakeWhatsApp(Number(process.argv[2] ?? 0));
  console.log(fake.url);
  process.once('SIGINT', () => void fake.close());
  process.once('SIGTERM', () => void fake.close());
}
