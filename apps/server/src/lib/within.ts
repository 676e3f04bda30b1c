/** A wait that ran out: what was waited for may still finish, unheard. */
export class TimedOut extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimedOut';
  }
}

/**
 * `work`'s outcome, or TimedOut once `ms` have passed without one. The work itself goes on (a
 * query already sent cannot be taken back here): callers that ask again should not pile up
 * more of it meanwhile (see `oneAtATime`).
 */
export function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimedOut(ms)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `read`, shared by every caller while one is under way: a database too slow to answer is asked
 * once, not once more by each caller that gave up waiting for it.
 */
export function oneAtATime<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
}
