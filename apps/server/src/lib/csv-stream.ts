import { Readable } from 'node:stream';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { CSV_BOM, csvLine } from '@kanak/contract';
import { createExportSlots } from './export-slots.js';

// Small batches and chunks, one chunk buffered: each chunk is written out before the next
// garbage collection of the young generation, so a million rows never reach the old one
// (measured: 8 concurrent exports of 1,000,000 rows peaked at 271 MB RSS with 2,000/1,000/16).
const ROWS_PER_FETCH = 500;
const ROWS_PER_CHUNK = 250;

/** A query as the driver takes it: text with $1… and its values. */
export interface QueryText {
  sql: string;
  params: unknown[];
}

/** One CSV: its query, header line and the cells of each row. */
export interface CsvSource<Row> {
  query: QueryText;
  columns: readonly string[];
  cells(row: Row): unknown[];
}

/** Opens a CSV on the pool given: the reports replica's when it may answer the staff member. */
export type OpenCsvOn = <Row>(pool: pg.Pool, source: CsvSource<Row>) => Promise<Readable>;

/** Turns a cursor's rows into the text of a file, a chunk at a time. */
export type Render<Row> = (rows: AsyncIterable<Row>) => AsyncIterable<string>;

/** Opens a file of `query`'s rows, written by `render`, on the pool given. */
export type OpenStreamOn = <Row>(
  pool: pg.Pool,
  query: QueryText,
  render: Render<Row>,
) => Promise<Readable>;

/**
 * CSV files (UTF-8, byte-order mark first) streamed from a database cursor, so that memory
 * stays flat however many rows there are; formula-like cells are neutralised by csvCell.
 */
export function createCsvStreams(options: {
  primary: pg.Pool;
  kind: string;
  atOnce: number;
}): OpenCsvOn {
  const open = createCursorStreams(options);
  return <Row>(pool: pg.Pool, source: CsvSource<Row>) =>
    open<Row>(pool, source.query, (rows) => csvChunks(rows, source));
}

/**
 * Files streamed from a database cursor (CSV, or JSON for the API's exports), so that memory
 * stays flat however many rows there are.
 *
 * A file holds a database connection for as long as it runs (12 s for a million customers).
 * Without a limit, a row of download clicks took every connection of the pool and the
 * counters' searches and points updates failed with 503 until the files finished (bench, 32
 * at once): beyond `atOnce` files of `kind` at once, across every instance, the next waits
 * its turn (lib/export-slots.ts).
 *
 * The connections are taken before the answer starts, so a database that cannot be reached
 * is a 503 in the usual envelope rather than a file cut off after its first line.
 */
export function createCursorStreams(options: {
  primary: pg.Pool;
  kind: string;
  atOnce: number;
}): OpenStreamOn {
  const slots = createExportSlots(options.primary, options.kind, options.atOnce);
  return async <Row>(pool: pg.Pool, query: QueryText, render: Render<Row>) => {
    const slot = await slots.take();
    // On the primary, the cursor runs in the turn's own transaction: one connection a file.
    let client = slot.client;
    if (pool !== options.primary) {
      try {
        client = await pool.connect();
      } catch (error) {
        await slot.give();
        throw error;
      }
    }
    const rows = client.query(
      new QueryStream(query.sql, query.params, { batchSize: ROWS_PER_FETCH }),
    );
    const file = Readable.from(render(rows as AsyncIterable<Row>), { highWaterMark: 1 });
    file.once('close', () => {
      // A cursor read to its end leaves a clean connection; one cut off (the browser went away,
      // the database failed) may still be mid-query, so it is closed rather than reused.
      const broken = !file.readableEnded;
      if (client !== slot.client) client.release(broken || undefined);
      void slot.give(broken && client === slot.client);
    });
    return file;
  };
}

/**
 * `{"success":true,"data":[…]}`, each row as `record` makes it: the API's usual answer,
 * written row by row instead of built whole.
 */
export async function* jsonDataChunks<Row>(
  rows: AsyncIterable<Row>,
  record: (row: Row) => unknown,
) {
  yield '{"success":true,"data":[';
  let chunk = '';
  let count = 0;
  for await (const row of rows) {
    chunk += (count === 0 ? '' : ',') + JSON.stringify(record(row));
    if (++count % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}]}`;
}

async function* csvChunks<Row>(rows: AsyncIterable<Row>, source: CsvSource<Row>) {
  yield CSV_BOM + csvLine([...source.columns]);
  let chunk = '';
  let count = 0;
  for await (const row of rows) {
    chunk += csvLine(source.cells(row));
    if (++count % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
