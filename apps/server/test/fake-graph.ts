import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local stand-in for Meta's Graph API as WhatsApp's Cloud API uses it, a real HTTP server on
 * 127.0.0.1, every call under a version (`/v25.0/…`) and with `Authorization: Bearer <token>`:
 *   GET /{version}/{businessAccountId}/message_templates?limit=&after=
 *       → { data: [{ name, language, category, status, components, id }],
 *           paging: { cursors: { before, after }, next?: absolute URL of the next page } }
 *   POST /{version}/{phoneNumberId}/messages { messaging_product: "whatsapp", to, type, template }
 *       → { messaging_product, contacts: [{ input, wa_id }], messages: [{ id: "wamid.…" }] }
 * Refusals are Meta's: `{ error: { message, type, code, fbtrace_id } }`. A wrong or missing
 * token, or `tokenInvalid` set, answers 401 with code 190. `throttle(n)` makes the next n calls
 * answer 429 with code 80007 (a business account's rate limit), as Meta does without a
 * Retry-After unless given one, then it answers again as usual. `nextOrigin` puts the next
 * page's address on another host.
 * `pageSize` (unset: the caller's `limit`, at most 100) sets how many templates a page holds.
 *
 * `signWebhook` signs an event body as Meta does (X-Hub-Signature-256).
 *
 * Alone: `npx tsx apps/server/test/fake-graph.ts [port]` prints its address and token as JSON
 * and runs until stopped.
 */

export interface FakeTemplate {
  name: string;
  language: string;
  category: string;
  status: string;
  components: { type: string; text?: string; format?: string }[];
}

export interface FakeGraphMessage {
  phoneNumberId: string;
  to: string;
  body: Record<string, unknown>;
  id: string;
}

export interface FakeGraph {
  url: string;
  /** The access token it takes. */
  accessToken: string;
  /** The business account whose templates it lists. */
  businessAccountId: string;
  /** The phone number id it sends from. */
  phoneNumberId: string;
  /** The templates it lists, in order. */
  templates: FakeTemplate[];
  /** Templates a page; unset: the caller's `limit` (at most 100). */
  pageSize: number | undefined;
  /** Every call answers 401 code 190 while set, as for an expired token. */
  tokenInvalid: boolean;
  /** `paging.next` on another address than its own (a hostile or broken answer); unset: its own. */
  nextOrigin: string | undefined;
  /** The next `count` calls answer 429, code 80007, with this Retry-After if given. */
  throttle(count: number, retryAfter?: string): void;
  /** Every call received, as `METHOD /path?query`, with its answer's status. */
  readonly calls: { call: string; status: number }[];
  /** The messages sent through it. */
  readonly messages: FakeGraphMessage[];
  reset(): void;
  close(): Promise<void>;
}

/** `sha256=<hex>`: HMAC-SHA256 of the body exactly as sent, under the app secret. */
export const signWebhook = (body: string | Buffer, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;

const json = (
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

const metaError = (code: number, message: string, type = 'OAuthException') => ({
  error: { message, type, code, fbtrace_id: randomBytes(8).toString('hex') },
});

async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const cursor = (index: number) => Buffer.from(`index:${index}`).toString('base64url');
const indexOf = (given: string | null) => {
  if (!given) return 0;
  const match = /^index:(\d+)$/.exec(Buffer.from(given, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : 0;
};

export async function startFakeGraph(port = 0): Promise<FakeGraph> {
  const sockets = new Set<Socket>();
  let throttled = 0;
  let throttledRetryAfter: string | undefined;
  let sent = 0;

  const answer = async (
    request: http.IncomingMessage,
    url: URL,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> => {
    const authorization = request.headers.authorization ?? '';
    if (fake.tokenInvalid || authorization !== `Bearer ${fake.accessToken}`)
      return {
        status: 401,
        body: metaError(190, 'Invalid OAuth access token - Cannot parse access token'),
      };
    if (throttled > 0) {
      throttled--;
      return {
        status: 429,
        body: metaError(80007, '(#80007) Rate limit hit for the WhatsApp Business Account'),
        ...(throttledRetryAfter === undefined
          ? {}
          : { headers: { 'retry-after': throttledRetryAfter } }),
      };
    }
    const templates = /^\/(v\d+\.\d+)\/(\d+)\/message_templates$/.exec(url.pathname);
    if (request.method === 'GET' && templates) {
      if (templates[2] !== fake.businessAccountId)
        return {
          status: 400,
          body: metaError(
            100,
            'Unsupported get request. Object does not exist.',
            'GraphMethodException',
          ),
        };
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, 100);
      const size = fake.pageSize ?? limit;
      const from = indexOf(url.searchParams.get('after'));
      const page = fake.templates.slice(from, from + size);
      const next = new URL(url.pathname, fake.nextOrigin ?? fake.url);
      next.searchParams.set('limit', String(limit));
      next.searchParams.set('after', cursor(from + size));
      return {
        status: 200,
        body: {
          data: page.map((template, at) => ({ ...template, id: String(1000 + from + at) })),
          paging: {
            cursors: { before: cursor(from), after: cursor(from + page.length) },
            ...(from + size < fake.templates.length ? { next: next.toString() } : {}),
          },
        },
      };
    }
    const messages = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(url.pathname);
    if (request.method === 'POST' && messages) {
      const body = await readJson(request);
      if (messages[2] !== fake.phoneNumberId || body.messaging_product !== 'whatsapp')
        return { status: 400, body: metaError(100, 'Invalid parameter', 'OAuthException') };
      const id = `wamid.FAKE${String(++sent).padStart(6, '0')}${randomBytes(6).toString('hex')}`;
      const to = String(body.to ?? '');
      fake.messages.push({ phoneNumberId: messages[2], to, body, id });
      return {
        status: 200,
        body: {
          messaging_product: 'whatsapp',
          contacts: [{ input: to, wa_id: to }],
          messages: [{ id }],
        },
      };
    }
    return { status: 404, body: metaError(803, 'Unknown path', 'GraphMethodException') };
  };

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const { status, body, headers } = await answer(request, url);
      fake.calls.push({ call: `${request.method} ${url.pathname}${url.search}`, status });
      json(response, status, body, headers);
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;

  const fake: FakeGraph = {
    url: `http://127.0.0.1:${address.port}`,
    accessToken: `EAAG${randomBytes(48).toString('base64url')}`,
    businessAccountId: '102290129340398',
    phoneNumberId: '106540352242922',
    templates: [],
    pageSize: undefined,
    tokenInvalid: false,
    nextOrigin: undefined,
    throttle: (count, retryAfter) => {
      throttled = count;
      throttledRetryAfter = retryAfter;
    },
    calls: [],
    messages: [],
    reset: () => {
      fake.templates = [];
      fake.pageSize = undefined;
      fake.tokenInvalid = false;
      fake.nextOrigin = undefined;
      throttled = 0;
      throttledRetryAfter = undefined;
      fake.calls.length = 0;
      fake.messages.length = 0;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fake = await startFakeGraph(Number(process.argv[2] ?? 0));
  console.log(
    JSON.stringify({
      url: fake.url,
      accessToken: fake.accessToken,
      businessAccountId: fake.businessAccountId,
      phoneNumberId: fake.phoneNumberId,
    }),
  );
  process.once('SIGINT', () => void fake.close());
  process.once('SIGTERM', () => void fake.close());
}
