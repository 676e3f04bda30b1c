import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAfterChange } from './query-client';

describe('refetchAfterChange', () => {
  it('asks again when the first read was still on its way and saw the list before the change', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    let stored: string[] = [];
    const answers: (() => void)[] = [];
    // Each read takes the list as it is when the request arrives, and answers when told to.
    const observer = new QueryObserver(client, {
      queryKey: ['customers', 'search', '9449177816'],
      queryFn: () => {
        const seen = stored;
        return new Promise<string[]>((resolve) => answers.push(() => resolve(seen)));
      },
    });
    const unsubscribe = observer.subscribe(() => undefined);
    expect(answers).toHaveLength(1); // the search is on its way, before the save

    stored = ['Lakshmi Iyer'];
    const refreshed = refetchAfterChange(client, ['customers']);
    await Promise.resolve();
    answers[0]!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(answers).toHaveLength(2); // asked again, not the first read reused
    answers[1]!();
    await refreshed;

    expect(observer.getCurrentResult().data).toEqual(['Lakshmi Iyer']);
    unsubscribe();
    client.clear();
  });
});
