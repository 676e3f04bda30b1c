import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it } from 'vitest';
import { ApiRefusal } from './api';
import { useChange } from './change';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** A send whose answers the test gives, one per call, recording the keys it was sent with. */
function controlledSend() {
  const keys: string[] = [];
  const answers: { resolve: (value: string) => void; reject: (error: unknown) => void }[] = [];
  const send = (_input: { points: number }, key: string) =>
    new Promise<string>((resolve, reject) => {
      keys.push(key);
      answers.push({ resolve, reject });
    });
  return { send, keys, answers };
}

const networkError = () =>
  new AxiosError('Network Error', 'ERR_NETWORK', { headers: new AxiosHeaders() });

describe('useChange: one user action, one request', () => {
  it('ignores a second press while the first is on its way, and shows the first answer', async () => {
    const { send, keys, answers } = controlledSend();
    const { result } = renderHook(() => useChange(send), { wrapper });
    const shown: string[] = [];
    act(() => {
      result.current.submit({ points: 11 }, { onSuccess: (answer) => shown.push(answer) });
      result.current.submit({ points: 11 }, { onSuccess: (answer) => shown.push(`2nd ${answer}`) });
    });
    await waitFor(() => expect(keys).toHaveLength(1));
    expect(result.current.isRunning()).toBe(true);
    act(() => answers[0]!.resolve('done'));
    await waitFor(() => expect(shown).toEqual(['done']));
    expect(keys).toHaveLength(1);
  });

  it('sends the same key again after an unknown outcome, a new one after an answer', async () => {
    const { send, keys, answers } = controlledSend();
    const { result } = renderHook(() => useChange(send), { wrapper });
    const press = (points: number) => act(() => result.current.submit({ points }));

    press(11);
    await waitFor(() => expect(keys).toHaveLength(1));
    act(() => answers[0]!.reject(networkError()));
    await waitFor(() => expect(result.current.isRunning()).toBe(false));

    // The same entry again: maybe the server made it, so the same key.
    press(11);
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[1]).toBe(keys[0]);
    act(() => answers[1]!.resolve('done'));
    await waitFor(() => expect(result.current.isRunning()).toBe(false));

    // After an answer, the next press is a new action.
    press(11);
    await waitFor(() => expect(keys).toHaveLength(3));
    expect(keys[2]).not.toBe(keys[0]);
    act(() => answers[2]!.reject(new ApiRefusal('Insufficient points.', 409)));
    await waitFor(() => expect(result.current.isRunning()).toBe(false));

    // A refusal is an answer too; a changed entry is a new action anyway.
    press(11);
    press(12);
    await waitFor(() => expect(keys).toHaveLength(4));
    expect(new Set(keys).size).toBe(3);
  });
});
