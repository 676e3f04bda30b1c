import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, API_PREFIX, maskAadhaar, type CustomerRecord } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * The managers' JSON export of every customer (`GET …/download-customer-data`, no format)
 * is written row by row from a database cursor, as the CSV is: the answer is sent in chunks
 * as it is read, never built whole in the server's memory, and reads as the same answer.
 */
const CUSTOMERS = 5000;
let manager: SignedIn;
let base: string;

beforeAll(async () => {
  manager = await signedIn('manager');
  await manager.sql(
    `INSERT INTO customers (mobileno, custname, email, address, city, pincode, state, dob, doa,
                            aadhaar_last4, pan)
     SELECT '96' || lpad(n::text, 8, '0'), 'Export "Customer" ' || n,
            CASE WHEN n % 3 = 0 THEN 'c' || n || '@example.in' ELSE '' END,
            n || ', MG Road', 'Pune', '411001', 'Maharashtra',
            CASE WHEN n % 2 = 0 THEN DATE '1980-01-01' + n END,
            CASE WHEN n % 5 = 0 THEN DATE '2005-02-01' + n END,
            CASE WHEN n % 7 = 0 THEN lpad((n % 10000)::text, 4, '0') END,
            CASE WHEN n % 11 = 0 THEN 'ABCDE1234F' ELSE '' END
       FROM generate_series(1, $1::int) AS n`,
    [CUSTOMERS],
  );
  // Each customer's points account opened with them: its balance, n % 1000.
  await manager.sql(
    `UPDATE points_accounts a SET balance = substr(c.mobileno, 3)::int % 1000
       FROM customers c WHERE c.id = a.customer_id AND c.mobileno LIKE '96%'`,
  );
  // An erased customer has nothing left to export.
  await manager.sql(
    `INSERT INTO customers (mobileno, custname, erased_at) VALUES (NULL, '(erased)', now())`,
  );
  await manager.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(manager.app.server.address() as AddressInfo).port}`;
});
afterAll(() => manager?.close());

/** The answer as it comes off the socket: its head and each piece of body as it arrived. */
function get(path: string) {
  return new Promise<{ response: IncomingMessage; chunks: Buffer[] }>((resolve, reject) => {
    const sent = httpRequest(
      `${base}${path}`,
      { headers: { authorization: `Bearer ${manager.token}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ response, chunks }));
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

/** Every customer not erased, as the export has always shaped them, in id order. */
async function expected(): Promise<CustomerRecord[]> {
  const rows = await manager.sql<{
    id: number;
    mobileno: string;
    custname: string;
    email: string;
    address: string;
    city: string;
    pincode: string;
    state: string;
    dob: string | null;
    doa: string | null;
    aadhaar_last4: string | null;
    pan: string;
    points_balance: number;
  }>(
    `SELECT id, mobileno, custname, email, address, city, pincode, state,
            dob::text AS dob, doa::text AS doa, aadhaar_last4, pan, a.balance AS points_balance
       FROM customers c JOIN points_accounts a ON a.customer_id = c.id
      WHERE mobileno IS NOT NULL ORDER BY id`,
  );
  return rows.map((row) => ({
    custid: row.id,
    mobileno: row.mobileno,
    custname: row.custname,
    email: row.email,
    address: row.address,
    city: row.city,
    pincode: row.pincode,
    state: row.state,
    dob: row.dob ?? '',
    doa: row.doa ?? '',
    aadhaar: row.aadhaar_last4 ? maskAadhaar(row.aadhaar_last4) : '',
    pan: row.pan,
    points: row.points_balance,
  }));
}

describe('the JSON customer export', () => {
  it('is sent in chunks as it is read, with no length known up front', async () => {
    const { response, chunks } = await get(`${API_PREFIX}${API_PATHS.exportCustomers}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    // The first rows were on their way before the last were read.
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks[0]!.toString()).toMatch(/^\{"success":true,"data":\[/);
  });

  it('reads as the same answer as before, byte for byte, for thousands of customers', async () => {
    const { chunks } = await get(`${API_PREFIX}${API_PATHS.exportCustomers}?format=json`);
    const text = Buffer.concat(chunks).toString('utf8');
    const records = await expected();
    expect(records).toHaveLength(CUSTOMERS);
    expect(text).toBe(JSON.stringify({ success: true, data: records }));
    const parsed = JSON.parse(text) as { data: CustomerRecord[] };
    expect(parsed.data.find((record) => record.custid === records[6]!.custid)?.aadhaar).toBe(
      maskAadhaar('0007'),
    );
  });
});
