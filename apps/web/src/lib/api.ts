import axios, { AxiosError, type InternalAxiosRequestConfig } from 'axios';
import type { z } from 'zod';
import axiosRetry, { exponentialDelay, isNetworkOrIdempotentRequestError } from 'axios-retry';
import {
  SIGN_IN_API_PATHS,
  API_PREFIX,
  IDEMPOTENCY_HEADER,
  LIMITS,
  SIGN_IN_MESSAGES,
} from '@kanak/contract';
import { connection } from './connection';
import { storage } from './storage';
import { endSession } from './session';

/**
 * The one HTTP client: JSON, 15 s timeout, the saved token as a Bearer
 * header, up to 3 retries with exponential backoff for network errors, for idempotent
 * requests that meet a 429 or 5xx and for a change the server is still making, and an
 * Idempotency-Key on every mutating request.
 */
export const api = axios.create({
  baseURL: import.meta.env.VITE_API_URL || API_PREFIX,
  timeout: LIMITS.requestTimeoutMs,
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
});

const MUTATING_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** A random UUID v4; `crypto.randomUUID` is missing on plain-http LAN addresses. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The request options that send `key` as the Idempotency-Key: a user action repeated after an
 * unknown outcome (a lost answer, a stopped server) is then made at most once by the server.
 */
export const withIdempotencyKey = (key: string) => ({ headers: { [IDEMPOTENCY_HEADER]: key } });

function isLoginRequest(config: InternalAxiosRequestConfig | undefined): boolean {
  return config?.url === SIGN_IN_API_PATHS.login;
}

/** Logout is told to the server after the session has ended here: its 401 ends nothing more. */
function isLogoutRequest(config: InternalAxiosRequestConfig | undefined): boolean {
  return config?.url === SIGN_IN_API_PATHS.logout;
}

api.interceptors.request.use((config) => {
  const token = storage.getToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  // Made once per user action: a retry re-sends this same config, so it keeps its key.
  const method = (config.method ?? 'get').toLowerCase();
  if (MUTATING_METHODS.has(method) && !config.headers.has(IDEMPOTENCY_HEADER)) {
    config.headers.set(IDEMPOTENCY_HEADER, newIdempotencyKey());
  }
  return config;
});

/**
 * No answer, or a gateway or server that could not reach what it needed: the connection
 * banner says so until a call is answered again.
 */
const isLostConnection = (error: AxiosError) =>
  !error.response || [502, 503, 504].includes(error.response.status);

// Registered before axios-retry, so it sees each attempt once and never the retry's echo.
api.interceptors.response.use(
  (response) => {
    connection.reached();
    return response;
  },
  (error: unknown) => {
    if (error instanceof AxiosError && !axios.isCancel(error)) {
      if (isLostConnection(error)) connection.lost();
      else connection.reached();
    }
    return Promise.reject(error);
  },
);

api.interceptors.response.use(undefined, (error: unknown) => {
  if (
    error instanceof AxiosError &&
    error.response?.status === 401 &&
    !isLoginRequest(error.config) &&
    !isLogoutRequest(error.config)
  ) {
    const method = (error.config?.method ?? 'get').toLowerCase();
    endSession(SIGN_IN_MESSAGES.sessionExpired, { unsavedChange: MUTATING_METHODS.has(method) });
  }
  return Promise.reject(error);
});

/**
 * A retry (after a lost answer) that arrives while the server still works on the first
 * attempt gets 409 "still being processed": asking again shortly fetches the first answer,
 * so staff see the change reported as made instead of a refusal. Not the "interrupted" 409:
 * no answer will ever come for that one, so staff are told to check instead.
 */
function isStillInProgress(error: AxiosError): boolean {
  const data: unknown = error.response?.data;
  return (
    error.response?.status === 409 &&
    typeof data === 'object' &&
    data !== null &&
    'message' in data &&
    data.message === SIGN_IN_MESSAGES.idempotencyInProgress
  );
}

/**
 * A 503: the server was stopping (a restart, or a load balancer moving traffic) or could not
 * reach its database. Sent again with the same Idempotency-Key, a change is made at most
 * once: the server releases the key only when nothing can have been done, and otherwise
 * answers the retry "still being processed".
 */
const isUnavailable = (error: AxiosError) => error.response?.status === 503;

connection.setProbe(() =>
  api.get(SIGN_IN_API_PATHS.health, {
    timeout: LIMITS.logoutTimeoutMs,
    'axios-retry': { retries: 0 },
  }),
);

axiosRetry(api, {
  retries: LIMITS.requestRetries,
  retryDelay: exponentialDelay,
  retryCondition: (error) =>
    isNetworkOrIdempotentRequestError(error) || isUnavailable(error) || isStillInProgress(error),
});

/**
 * Logout (both Logout actions): this browser forgets the session at once, then the server is
 * told to end the token, so that a copy of it stops working too (ASVS 3.3.1). Best effort:
 * one short try in the background; a slow, failed or refused call never holds up the logout.
 */
export function logout(): void {
  const token = storage.getToken();
  endSession();
  if (!token) return;
  api
    .post(SIGN_IN_API_PATHS.logout, undefined, {
      headers: { Authorization: `Bearer ${token}` },
      timeout: LIMITS.logoutTimeoutMs,
      'axios-retry': { retries: 0 },
    })
    .catch(() => undefined);
}

/**
 * A call's answer, typed from the contract's response schema (the one the server's route
 * declares): `api.post<Answer<typeof customerResponse>>(...)`. Types only: nothing of zod
 * reaches the bundle, so the login page stays small.
 */
export type Answer<Schema extends z.ZodType> = z.infer<Schema>;

/** The response envelope of every endpoint. */
export interface Envelope {
  success: boolean;
  message?: string;
}

/** A 200 answer with `success: false`: the same "success false" branch as a 4xx envelope. */
export class ApiRefusal extends Error {
  constructor(
    message: string,
    readonly status = 200,
  ) {
    super(message);
    this.name = 'ApiRefusal';
  }
}

/** Throws ApiRefusal unless the envelope says success. */
export function expectSuccess<T extends Envelope>(body: T): T {
  if (!body.success) throw new ApiRefusal(body.message ?? '');
  return body;
}

/**
 * How a failed call ended, in the spec's terms:
 * - `refused`: the server answered with `success: false` (any 4xx, or a 200 saying so);
 *   screens show `message` where the spec says "show the server message".
 * - `exception`: network error, timeout, 5xx or an unreadable answer; screens show their
 *   fixed text. `unreachable`: the connection itself failed (no answer at all, and not a
 *   timeout): the network or the server is down. Mostly the request never got there, but a
 *   connection dropped after sending may still have been acted on.
 * - `sessionExpired`: a 401 outside login; already handled (storage cleared, back to `/`).
 */
export type Failure =
  | { kind: 'refused'; status: number; message: string | null; code?: string }
  | { kind: 'exception'; status: number | null; unreachable: boolean }
  | { kind: 'sessionExpired' };

export function readFailure(error: unknown): Failure {
  if (error instanceof ApiRefusal) {
    return { kind: 'refused', status: error.status, message: error.message || null };
  }
  if (!(error instanceof AxiosError))
    return { kind: 'exception', status: null, unreachable: false };
  if (!error.response) {
    // A timeout may have reached a server that is only slow: only a failed connection is sure.
    return { kind: 'exception', status: null, unreachable: error.code === AxiosError.ERR_NETWORK };
  }
  const { status, data } = error.response;
  if (status === 401 && !isLoginRequest(error.config)) return { kind: 'sessionExpired' };
  if (status >= 400 && status < 500) {
    const message =
      typeof data === 'object' &&
      data !== null &&
      'message' in data &&
      typeof data.message === 'string'
        ? data.message
        : null;
    // A refusal the screen answers by itself (a gold rate to confirm) carries its code.
    const code =
      typeof data === 'object' && data !== null && 'code' in data && typeof data.code === 'string'
        ? data.code
        : undefined;
    return { kind: 'refused', status, message, ...(code ? { code } : {}) };
  }
  return { kind: 'exception', status, unreachable: false };
}
