import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> =
  { status: 'loading' } | { status: 'failed'; error: unknown } | { status: 'done'; data: T };

/**
 * A screen's data, asked for when the screen opens and again when `key` changes or on reload.
 * An answer that arrives after the screen moved on is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<Loaded<T> & { key: string }>({ status: 'loading', key });
  const [round, setRound] = useState(0);
  // Another key: loading at once, not the previous key's data for one render.
  const shown: Loaded<T> = state.key === key ? state : { status: 'loading' };
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ status: 'done', data, key }),
      (error: unknown) => live && setState({ status: 'failed', error, key }),
    );
    return () => {
      live = false;
    };
    // `load` is made anew on every render; `key` says when it asks for something else.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const reload = useCallback(() => {
    setState({ status: 'loading', key });
    setRound((n) => n + 1);
  }, [key]);
  return { state: shown, reload, set: (data: T) => setState({ status: 'done', data, key }) };
}
