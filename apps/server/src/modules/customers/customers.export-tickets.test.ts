import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  API_PATHS,
  API_PREFIX,
  CUSTOMER_EXPORT_COLUMNS,
  CUSTOMER_EXPORT_HEADERS,
  MESSAGES,
} from '@kanak/contract';
import { addUser, authed, login, signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * Export All through the browser's own download: an authenticated POST makes a single-use
 * ticket, a public GET with it streams the CSV. A ticket works once (also when two requests
 * race with it), expires, cannot be forged, is stored only as a hash and ends with its session.
 */

const TAMIL_NAME = 'முருகன் செல்வம்';
const HINDI_NAME = 'सीता राम';

let ctx: SignedIn;

beforeAll(async () => {
  ctx = await signedIn('owner', { username: 'meera' });
  await addUser(ctx, 'ravi', 'Ravi@19281');
});
afterAll(() => ctx?.close());

const issue = (bearer = ctx.token) =>
  ctx.app.inject(authed(bearer, { method: 'POST', url: `${API_PREFIX}${API_PATHS.exportTicket}` }));

async function newLink(bearer = ctx.token): Promise<string> {
  const response = await issue(bearer);
  expect(response.statusCode, response.body).toBe(200);
  const { data } = response.json<{ data: { url: string; expiresInSeconds: number } }>();
  expect(data.expiresInSeconds).toBe(60);
  expect(data.url).toMatch(
    new RegExp(`^${API_PREFIX}${API_PATHS.exportDownload}\\?ticket=[A-Za-z0-9_-]{43}$`),
  );
  return data.url;
}

/** A browser's download: a plain GET, no Authorization header. */
const download = (url: string) => ctx.app.inject({ method: 'GET', url });

const ticketOf = (url: string) => new URL(url, 'http://kanak.test').searchParams.get('ticket')!;

function expectRefused(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({ success: false, message });
}

describe('with no customers', () => {
  it('refuses a ticket with "No data found to export", which the screen shows', async () => {
    expectRefused(await issue(), 404, MESSAGES.noExportData);
    expect(await ctx.sql('SELECT 1 FROM export_tickets')).toHaveLength(0);
  });
});

describe('export by ticket', () => {
  beforeAll(async () => {
    await ctx.sql(
      `INSERT INTO customers (mobileno, custname)
       SELECT '98' || lpad(n::text, 8, '0'), 'Ticket ' || n FROM generate_series(1, 1200) AS n`,
    );
    await ctx.sql(
      `INSERT INTO customers (mobileno, custname, city) VALUES
         ('9100000001', $1, 'Madurai'), ('9100000002', $2, 'Varanasi')`,
      [TAMIL_NAME, HINDI_NAME],
    );
  });

  it('streams the CSV once, as an attachment starting with the UTF-8 byte-order mark', async () => {
    const response = await download(await newLink());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="customer_list.csv"',
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(CUSTOMER_EXPORT_COLUMNS.map((c) => CUSTOMER_EXPORT_HEADERS[c]).join(','));
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 1202 + 1);
    expect(lines.find((line) => line.includes('9100000001'))).toContain(`,${TAMIL_NAME},`);
    expect(lines.find((line) => line.includes('9100000002'))).toContain(`,${HINDI_NAME},`);
  });

  it('refuses a second use with a clear 404', async () => {
    const url = await newLink();
    expect((await download(url)).statusCode).toBe(200);
    expectRefused(await download(url), 404, MESSAGES.exportLinkInvalid);
  });

  it('refuses an expired ticket, and uses it up', async () => {
    const url = await newLink();
    const hash = createHash('sha256').update(ticketOf(url)).digest('hex');
    await ctx.sql(
      `UPDATE export_tickets SET expires_at = now() - interval '1 second' WHERE ticket_hash = $1`,
      [hash],
    );
    expectRefused(await download(url), 404, MESSAGES.exportLinkExpired);
    expectRefused(await download(url), 404, MESSAGES.exportLinkInvalid);
  });

  it('expires 60 seconds after it is made, by the database clock', async () => {
    const url = await newLink();
    const hash = createHash('sha256').update(ticketOf(url)).digest('hex');
    const [row] = await ctx.sql<{ seconds: number }>(
      `SELECT round(extract(epoch FROM expires_at - now()))::int AS seconds
       FROM export_tickets WHERE ticket_hash = $1`,
      [hash],
    );
    expect(row?.seconds).toBeGreaterThan(55);
    expect(row?.seconds).toBeLessThanOrEqual(60);
  });

  it('refuses forged, missing and malformed tickets, never with a 500', async () => {
    const forged = randomBytes(32).toString('base64url');
    const base = `${API_PREFIX}${API_PATHS.exportDownload}`;
    expectRefused(await download(`${base}?ticket=${forged}`), 404, MESSAGES.exportLinkInvalid);
    expectRefused(await download(base), 404, MESSAGES.exportLinkInvalid);
    expectRefused(await download(`${base}?ticket=`), 404, MESSAGES.exportLinkInvalid);
    expectRefused(await download(`${base}?ticket=%00%27--`), 400, MESSAGES.exportLinkInvalid);
    expectRefused(
      await download(`${base}?ticket=${'a'.repeat(5000)}`),
      400,
      MESSAGES.exportLinkInvalid,
    );
    // A real ticket's hash is not a ticket.
    const url = await newLink();
    const hash = createHash('sha256').update(ticketOf(url)).digest('hex');
    expectRefused(await download(`${base}?ticket=${hash}`), 404, MESSAGES.exportLinkInvalid);
    expect((await download(url)).statusCode).toBe(200);
  });

  it('stores only a hash of the ticket', async () => {
    const url = await newLink();
    const ticket = ticketOf(url);
    const rows = await ctx.sql<{ ticket_hash: string }>('SELECT ticket_hash FROM export_tickets');
    expect(rows.map((row) => row.ticket_hash)).toContain(
      createHash('sha256').update(ticket).digest('hex'),
    );
    expect(JSON.stringify(rows)).not.toContain(ticket);
  });

  it('gives the file to exactly one of many requests racing with one ticket', async () => {
    const url = await newLink();
    const answers = await Promise.all(Array.from({ length: 8 }, () => download(url)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    for (const answer of answers.filter((a) => a.statusCode === 404))
      expect(answer.json()).toEqual({ success: false, message: MESSAGES.exportLinkInvalid });
  });

  it('needs a signed-in user to make a ticket', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API_PREFIX}${API_PATHS.exportTicket}`,
    });
    expectRefused(response, 401, MESSAGES.sessionExpired);
  });

  it('ends with the session it was made in: a ticket made before logout is refused', async () => {
    const ravi = await login(ctx, 'ravi', 'Ravi@19281');
    const url = await newLink(ravi);
    const loggedOut = await ctx.app.inject(
      authed(ravi, { method: 'POST', url: `${API_PREFIX}${API_PATHS.logout}` }),
    );
    expect(loggedOut.statusCode, loggedOut.body).toBe(200);
    expectRefused(await download(url), 401, MESSAGES.sessionExpired);
  });

  it('is refused once the account is disabled', async () => {
    const ravi = await login(ctx, 'ravi', 'Ravi@19281');
    const url = await newLink(ravi);
    await ctx.sql(`UPDATE users SET disabled_at = now() WHERE username = 'ravi'`);
    expectRefused(await download(url), 401, MESSAGES.sessionExpired);
  });
});
