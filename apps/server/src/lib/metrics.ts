import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { oneAtATime, within } from './within.js';

/**
 * How long a figure read at scrape time may take: a database that does not answer leaves its
 * figures out of that scrape rather than holding the scrape (Prometheus gives up at 10 s).
 */
export const SCRAPE_READ_MS = 2_000;

/** Figures read afresh at every scrape: from the database, the replica, the disk. */
export interface ScrapeSource<T> {
  /** Every gauge `show` sets: emptied before each scrape, so a failed read shows no values. */
  gauges: Gauge[];
  read(): Promise<T>;
  show(value: T): void;
}

export interface Metrics {
  /**
   * Every metric GET /metrics shows. Add one with `registers: [metrics.registry]`; one read at
   * scrape time from somewhere slow goes through `readAtScrape`.
   */
  registry: Registry;
  /**
   * Reads `source` at every scrape, within SCRAPE_READ_MS. `kanak_scrape_source_up{source}` says
   * whether this scrape's read answered in time (0: its metrics are absent), and
   * `kanak_scrape_source_seconds` how long it took. A read still under way from an earlier
   * scrape is not started again.
   */
  readAtScrape<T>(name: string, source: ScrapeSource<T>): void;
  /** Reads every source, then the exposition text of the whole registry. */
  scrape(): Promise<string>;
  /** The exposition format's content type (Prometheus text, version 0.0.4). */
  contentType: string;
}

/** A registry of this server's own, with the Node process's default metrics in it. */
export function createMetrics(readMs = SCRAPE_READ_MS): Metrics {
  // A registry per app, not prom-client's global one: tests build several apps in one process.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const up = new Gauge({
    name: 'kanak_scrape_source_up',
    help: "1 when this scrape's read of the source answered in time, else 0 (its figures are absent).",
    labelNames: ['source'],
    registers: [registry],
  });
  const seconds = new Gauge({
    name: 'kanak_scrape_source_seconds',
    help: "How long this scrape's read of the source took (the timeout when it did not answer).",
    labelNames: ['source'],
    registers: [registry],
  });
  const reads: (() => Promise<void>)[] = [];

  return {
    registry,
    contentType: registry.contentType,
    readAtScrape(name, source) {
      const read = oneAtATime(source.read);
      reads.push(async () => {
        for (const gauge of source.gauges) {
          gauge.reset();
          // A gauge without labels shows 0 once reset; a figure not read is absent instead.
          gauge.remove({});
        }
        const started = performance.now();
        try {
          const value = await within(read(), readMs);
          source.show(value);
          up.set({ source: name }, 1);
        } catch {
          up.set({ source: name }, 0);
        } finally {
          seconds.set({ source: name }, (performance.now() - started) / 1000);
        }
      });
    },
    async scrape() {
      await Promise.all(reads.map((read) => read()));
      return registry.metrics();
    },
  };
}
