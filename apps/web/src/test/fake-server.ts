import {
  AxiosError,
  AxiosHeaders,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { API_PATHS, type Branding } from '@kanak/contract';
import { api } from '../lib/api';

/** A request as the server would see it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** The query string's parameters (axios `params`). */
  params?: Record<string, unknown>;
  /** How long the client would wait for this answer, in ms (the fake answers at once). */
  timeout?: number;
}

export type Reply =
  { status: number; body?: unknown; headers?: Record<string, string> } | 'network-error';
type Handler = (request: SeenRequest) => Reply | Promise<Reply>;

export const testBranding: Branding = {
  companyName: 'Swarnamahal Jewellers',
  companyTagline: 'Since 1928',
  shopAddress: '12 Zaveri Bazaar, Mumbai 400002',
  shopPhone: '+91 22 2342 1928',
  supportPhone: '+91 80 4718 2200',
  poweredBy: 'Kanak Technologies',
  storeTimezone: 'Asia/Kolkata',
};

/** Who the tests are signed in as, unless a test answers GET /api/me itself. */
export const testOwner = {
  username: 'admin',
  name: 'Admin',
  role: 'owner',
  branch: null,
  mustChangePassword: false,
};

/**
 * A fake HTTP server at the axios adapter: everything above it (interceptors, retries,
 * Idempotency-Key, 401 handling) runs for real.
 */
export function fakeServer() {
  const handlers = new Map<string, Handler>();
  const requests: SeenRequest[] = [];

  api.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    const request: SeenRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      headers: Object.fromEntries(
        Object.entries(AxiosHeaders.from(config.headers).toJSON()).map(([k, v]) => [k, String(v)]),
      ),
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
      params: config.params as Record<string, unknown> | undefined,
      timeout: config.timeout,
    };
    requests.push(request);
    const handler = handlers.get(`${request.method} ${request.url}`);
    const reply: Reply = handler
      ? await handler(request)
      : { status: 404, body: { success: false, message: 'Not found.' } };
    if (reply === 'network-error') {
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
    }
    const response: AxiosResponse = {
      data: reply.body,
      status: reply.status,
      statusText: String(reply.status),
      headers: reply.headers ?? {},
      config,
      request: {},
    };
    if (config.validateStatus && !config.validateStatus(reply.status)) {
      const code = reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
      throw new AxiosError(
        `Request failed with status code ${reply.status}`,
        code,
        config,
        {},
        response,
      );
    }
    return response;
  };

  const server = {
    requests,
    /** Answers `method path` with a fixed reply, or with whatever `handler` returns. */
    on(method: string, path: string, reply: Reply | Handler) {
      handlers.set(`${method} ${path}`, typeof reply === 'function' ? reply : () => reply);
      return server;
    },
    /** The requests sent to `method path`, retries included. */
    sent(method: string, path: string) {
      return requests.filter((request) => request.method === method && request.url === path);
    },
  };
  return server
    .on('GET', API_PATHS.branding, { status: 200, body: { success: true, data: testBranding } })
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: testOwner } });
}

/** A reply the test releases when it wants (to look at the pending state). */
export function deferred() {
  let release!: (reply: Reply) => void;
  const promise = new Promise<Reply>((resolve) => {
    release = resolve;
  });
  return { handler: () => promise, release };
}
