import { useState } from 'react';
import { flushSync } from 'react-dom';

interface PrintAll<Whole> {
  /** The filter asked, as a key: a printout of another filter is stale. */
  asked: string;
  /** What the screen shows, when it holds the whole filter (one page of it all). */
  wholeOnScreen: Whole | null;
  /** Every row of the filter, in one answer (one consistent read). */
  fetchWhole: () => Promise<Whole>;
  /** Tells staff the fetch failed; nothing is printed or saved. */
  failed: (error: unknown) => void;
}

/**
 * Print and CSV of a list screen cover the whole filter, not the page on screen: when the
 * screen holds it all, that is used as it is; otherwise every row is fetched when pressed.
 * `printout` is the whole filter as last fetched for print, while that filter stands.
 */
export function usePrintAll<Whole>({ asked, wholeOnScreen, fetchWhole, failed }: PrintAll<Whole>) {
  const [fetching, setFetching] = useState(false);
  const [printout, setPrintout] = useState<{ asked: string; whole: Whole } | null>(null);

  /** The whole filter, or null when fetching it failed. */
  const whole = async (): Promise<Whole | null> => {
    if (wholeOnScreen !== null) return wholeOnScreen;
    setFetching(true);
    try {
      return await fetchWhole();
    } catch (error) {
      failed(error);
      return null;
    } finally {
      setFetching(false);
    }
  };

  // The printout is on the page before the browser's print dialog reads it.
  const printNow = (rows: Whole) => {
    flushSync(() => setPrintout({ asked, whole: rows }));
    window.print();
  };

  const print = async () => {
    if (wholeOnScreen !== null) return printNow(wholeOnScreen);
    const rows = await whole();
    if (rows !== null) printNow(rows);
  };

  return {
    print,
    whole,
    fetching,
    printout: printout?.asked === asked ? printout.whole : null,
  };
}
