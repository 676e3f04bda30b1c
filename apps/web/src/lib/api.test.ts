import { AxiosError } from 'axios';
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { API_PATHS, IDEMPOTENCY_HEADER, LIMITS, MESSAGES } from '@kanak/contract';
import { fakeServer } from '../test/fake-server';
import { api, ApiRefusal, expectSuccess, logout, newIdempotencyKey, readFailure } from './api';
import { appState } from './app-state';
import { setLoginRedirect } from './session';
import { storage } from './storage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const path = API_PATHS.updateCurrentUser;

describe('api client', () => {
  it('uses the spec timeout and JSON', () => {
    expect(api.defaults.timeout).toBe(LIMITS.requestTimeoutMs);
    expect(api.defaults.baseURL).toBe('/api');
    expect(api.defaults.headers['Content-Type']).toBe('application/json');
  });

  it('sends the saved token as a Bearer header, and no Idempotency-Key on a GET', async () => {
    const server = fakeServer();
    storage.saveSession({ accessToken: 'tok-123', user: 'meera', stayLoggedIn: false });

    await api.get(API_PATHS.branding);

    const [request] = server.sent('GET', API_PATHS.branding);
    expect(request?.headers.Authorization).toBe('Bearer tok-123');
    expect(request?.headers[IDEMPOTENCY_HEADER]).toBeUndefined();
  });

  it('sends no Authorization header without a saved token', async () => {
    const server = fakeServer();
    await api.get(API_PATHS.branding);
    expect(server.sent('GET', API_PATHS.branding)[0]?.headers.Authorization).toBeUndefined();
  });

  it('puts a fresh Idempotency-Key on every mutating request', async () => {
    const server = fakeServer().on('POST', path, { status: 200, body: { success: true } });

    await api.post(path, { a: 1 });
    await api.post(path, { a: 1 });

    const keys = server.sent('POST', path).map((request) => request.headers[IDEMPOTENCY_HEADER]);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('reuses the same Idempotency-Key when it retries a POST after a network error', async () => {
    let attempts = 0;
    const server = fakeServer().on('POST', path, () =>
      ++attempts === 1 ? 'network-error' : { status: 200, body: { success: true } },
    );

    const response = await api.post(path, { oldpassword: 'a', newpassword: 'b' });

    expect(response.data).toEqual({ success: true });
    const sent = server.sent('POST', path);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.headers[IDEMPOTENCY_HEADER]).toMatch(UUID);
    expect(sent[1]?.headers[IDEMPOTENCY_HEADER]).toBe(sent[0]?.headers[IDEMPOTENCY_HEADER]);
    expect(sent[1]?.body).toEqual(sent[0]?.body);
  });

  it('keeps a key the caller passed', async () => {
    const server = fakeServer().on('POST', path, { status: 200, body: { success: true } });
    await api.post(path, {}, { headers: { [IDEMPOTENCY_HEADER]: 'my-key' } });
    expect(server.sent('POST', path)[0]?.headers[IDEMPOTENCY_HEADER]).toBe('my-key');
  });

  it('sends a POST again after a 503 (no change was made), with the same Idempotency-Key', async () => {
    let posts = 0;
    const server = fakeServer().on('POST', path, () =>
      ++posts < 3
        ? { status: 503, body: { success: false, message: MESSAGES.serverStopping } }
        : { status: 200, body: { success: true } },
    );

    await expect(api.post(path, {})).resolves.toMatchObject({ status: 200 });
    const keys = server.sent('POST', path).map((request) => request.headers[IDEMPOTENCY_HEADER]);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('retries an idempotent GET on a 5xx, but never a POST that got another 5xx', async () => {
    let gets = 0;
    const server = fakeServer()
      .on('GET', API_PATHS.branding, () =>
        ++gets < 3 ? { status: 503 } : { status: 200, body: { success: true } },
      )
      .on('POST', path, { status: 500, body: { success: false } });

    await expect(api.get(API_PATHS.branding)).resolves.toMatchObject({ status: 200 });
    expect(server.sent('GET', API_PATHS.branding)).toHaveLength(3);

    await expect(api.post(path, {})).rejects.toMatchObject({ response: { status: 500 } });
    expect(server.sent('POST', path)).toHaveLength(1);
  });

  it('asks again while the server is still making the change, and stops at any other 409', async () => {
    let attempts = 0;
    const inProgress = { success: false, message: MESSAGES.idempotencyInProgress };
    const server = fakeServer()
      .on('POST', path, () =>
        ++attempts < 3
          ? { status: 409, body: inProgress }
          : { status: 200, body: { success: true } },
      )
      .on('POST', API_PATHS.updatePoints, {
        status: 409,
        body: { success: false, message: MESSAGES.idempotencyKeyReused },
      });

    await expect(api.post(path, {})).resolves.toMatchObject({ data: { success: true } });
    const sent = server.sent('POST', path);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((request) => request.headers[IDEMPOTENCY_HEADER])).size).toBe(1);

    await expect(api.post(API_PATHS.updatePoints, {})).rejects.toMatchObject({
      response: { status: 409 },
    });
    expect(server.sent('POST', API_PATHS.updatePoints)).toHaveLength(1);
  });

  it('does not ask again after the "interrupted" 409: no answer will ever come for it', async () => {
    const interrupted = { success: false, message: MESSAGES.idempotencyInterrupted };
    const server = fakeServer().on('POST', path, { status: 409, body: interrupted });

    const failure = await api.post(path, {}).catch((error: unknown) => readFailure(error));

    expect(failure).toEqual({ kind: 'refused', status: 409, message: interrupted.message });
    expect(server.sent('POST', path)).toHaveLength(1);
  });

  it('gives up after 3 retries', async () => {
    const server = fakeServer().on('GET', API_PATHS.branding, { status: 503 });
    await expect(api.get(API_PATHS.branding)).rejects.toMatchObject({ response: { status: 503 } });
    expect(server.sent('GET', API_PATHS.branding)).toHaveLength(1 + LIMITS.requestRetries);
  });

  it('on a 401 outside login, clears storage and returns to the login screen with a notice', async () => {
    const redirect = vi.fn();
    setLoginRedirect(redirect);
    storage.saveSession({ accessToken: 'expired', user: 'meera', stayLoggedIn: true });
    fakeServer().on('POST', path, {
      status: 401,
      body: { success: false, message: MESSAGES.sessionExpired },
    });

    const failure = await api.post(path, {}).catch((error: unknown) => readFailure(error));

    expect(failure).toEqual({ kind: 'sessionExpired' });
    expect(storage.getToken()).toBeNull();
    expect(storage.getUser()).toBeNull();
    expect(redirect).toHaveBeenCalledOnce();
    expect(appState.get().loginNotice).toBe(MESSAGES.sessionExpired);
  });

  it('leaves a 401 from the login call to the login screen', async () => {
    const redirect = vi.fn();
    setLoginRedirect(redirect);
    storage.saveSession({ accessToken: 'still-here', user: 'meera', stayLoggedIn: false });
    fakeServer().on('POST', API_PATHS.login, {
      status: 401,
      body: { success: false, message: MESSAGES.invalidCredentials },
    });

    const failure = await api
      .post(API_PATHS.login, {})
      .catch((error: unknown) => readFailure(error));

    expect(failure).toEqual({ kind: 'refused', status: 401, message: MESSAGES.invalidCredentials });
    expect(redirect).not.toHaveBeenCalled();
    expect(storage.getToken()).toBe('still-here');
  });

  it('logout forgets the session at once, then tells the server with the old token: one short try', async () => {
    const redirect = vi.fn();
    setLoginRedirect(redirect);
    storage.saveSession({ accessToken: 'tok-out', user: 'meera', stayLoggedIn: true });
    const server = fakeServer().on('POST', API_PATHS.logout, {
      status: 200,
      body: { success: true, message: MESSAGES.loggedOut },
    });

    logout();

    expect(storage.getToken()).toBeNull();
    expect(storage.getUser()).toBeNull();
    expect(redirect).toHaveBeenCalledOnce();
    await waitFor(() => expect(server.sent('POST', API_PATHS.logout)).toHaveLength(1));
    const [request] = server.sent('POST', API_PATHS.logout);
    expect(request?.headers.Authorization).toBe('Bearer tok-out');
    expect(request?.timeout).toBe(LIMITS.logoutTimeoutMs);
  });

  it.each([
    ['cannot be reached', 'network-error' as const],
    ['fails', { status: 503, body: { success: false, message: MESSAGES.serverStopping } }],
    ['says the session had already ended', { status: 401, body: { success: false } }],
  ])(
    'logout still logs out when the server %s, asks once, and shows no notice',
    async (_, reply) => {
      const redirect = vi.fn();
      setLoginRedirect(redirect);
      storage.saveSession({ accessToken: 'tok-out', user: 'meera', stayLoggedIn: false });
      const server = fakeServer().on('POST', API_PATHS.logout, reply);

      logout();
      await waitFor(() => expect(server.sent('POST', API_PATHS.logout)).toHaveLength(1));
      // Longer than axios-retry's first backoff (~200 ms): a retry would have gone out by now.
      await new Promise((resolve) => setTimeout(resolve, 300));

      expect(server.sent('POST', API_PATHS.logout)).toHaveLength(1);
      expect(storage.getToken()).toBeNull();
      expect(redirect).toHaveBeenCalledOnce();
      expect(appState.get().loginNotice).toBeNull();
    },
  );

  it('reads a 4xx envelope as "success false" and 5xx or no answer as an exception', async () => {
    fakeServer()
      .on('POST', '/refused', { status: 409, body: { success: false, message: 'No, because.' } })
      .on('POST', '/broken', { status: 500, body: { success: false, message: 'internal' } });
    const fail = (url: string) => api.post(url, {}).catch((error: unknown) => readFailure(error));

    expect(await fail('/refused')).toEqual({
      kind: 'refused',
      status: 409,
      message: 'No, because.',
    });
    expect(await fail('/broken')).toEqual({ kind: 'exception', status: 500, unreachable: false });
    expect(readFailure(new AxiosError('Network Error', AxiosError.ERR_NETWORK))).toEqual({
      kind: 'exception',
      status: null,
      unreachable: true,
    });
    expect(readFailure(new AxiosError('timeout', AxiosError.ECONNABORTED))).toEqual({
      kind: 'exception',
      status: null,
      unreachable: false,
    });
    expect(readFailure(new Error('boom'))).toEqual({
      kind: 'exception',
      status: null,
      unreachable: false,
    });
    expect(readFailure(new ApiRefusal('Not today.'))).toEqual({
      kind: 'refused',
      status: 200,
      message: 'Not today.',
    });
    expect(() => expectSuccess({ success: false, message: 'No.' })).toThrow(ApiRefusal);
  });

  it('makes UUID v4 keys even where crypto.randomUUID is missing (plain-http LAN address)', () => {
    const own = Object.getOwnPropertyDescriptor(crypto, 'randomUUID');
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 20 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(20);
      for (const key of keys) expect(key).toMatch(UUID);
    } finally {
      if (own) Object.defineProperty(crypto, 'randomUUID', own);
      else Reflect.deleteProperty(crypto, 'randomUUID');
    }
    expect(typeof crypto.randomUUID).toBe('function');
  });
});
