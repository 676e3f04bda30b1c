import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHATSAPP_MESSAGES } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';
import { signWebhook } from '../../../test/fake-graph.js';
import { pathSpellings, rawRequest } from '../../../test/raw-http.js';

let ctx: SignedIn;
let port: number;
let verifyToken = '';
const APP_SECRET = '9a8b7c6d5e4f30211203f4e5d6c7b8a9';
const PATH = '/api/whatsapp/webhook';
/** A message the official panel sent, as its notice holds it. */
const SENT_ID = 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAERgSQjU2RkQ5QjA3QTNFOTFCN0E3AA==';
const OTHER_ID = 'wamid.HBgMOTE5ODc2NTQzMjExFQIAERgSMTIzNDU2Nzg5MEFCQ0RFRgA=';

const stopper = { custid: 0, mobileno: '9876512345' };
const stranger = { custid: 0, mobileno: '9876512346' };

beforeAll(async () => {
  ctx = await signedIn('owner', { username: 'ishaan' });
  const saved = await ctx.post('/api/social/panel-setup', {
    formData: {
      panel: 4,
      phone: '9876543210',
      instanceid: '106540352242922',
      token: `EAAG${'k'.repeat(120)}`,
      businessAccountId: '102290129340398',
      appSecret: APP_SECRET,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  verifyToken = saved.json().data.webhookVerifyToken;
  for (const customer of [stopper, stranger]) {
    const added = await ctx.post('/api/customers/update-customer-data', {
      formData: { mobileno: customer.mobileno, custname: 'Meenakshi Iyer' },
    });
    expect(added.statusCode, added.body).toBe(200);
    customer.custid = added.json().data.custid;
    const granted = await ctx.post('/api/customers/consent', {
      custid: customer.custid,
      purpose: 'marketing',
      granted: true,
    });
    expect(granted.statusCode, granted.body).toBe(200);
  }
  // The notices the official panel sent, each with Meta's message id (as its send answered).
  await ctx.sql(
    `INSERT INTO notices (event, customer_id, mobile, text, status, attempts, provider_message_id, sent_at)
     VALUES ('pointsAdjusted', $1, $2, 'Your points', 'sent', 1, $3, now()),
            ('pointsAdjusted', $1, $2, 'Your points again', 'sent', 1, $4, now())`,
    [stopper.custid, stopper.mobileno, SENT_ID, OTHER_ID],
  );
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx.close());

const handshake = (query: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: PATH, query });

/** An event as Meta sends it: one change of the `messages` field. */
const event = (value: Record<string, unknown>) =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: '919876543210',
                phone_number_id: '106540352242922',
              },
              ...value,
            },
          },
        ],
      },
    ],
  });
const status = (id: string, name: string, timestamp: number, extra = {}) => ({
  statuses: [
    { id, status: name, timestamp: String(timestamp), recipient_id: '919876512345', ...extra },
  ],
});
const said = (from: string, text: string) => ({
  contacts: [{ profile: { name: 'Meenakshi' }, wa_id: from }],
  messages: [
    { from, id: 'wamid.IN1', timestamp: '1764400000', type: 'text', text: { body: text } },
  ],
});

/** Signed with the app secret unless told otherwise; `null`: no signature at all. */
const post = (body: string, signature: string | null = signWebhook(body, APP_SECRET)) =>
  ctx.app.inject({
    method: 'POST',
    url: PATH,
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
    },
    payload: body,
  });

const notices = () =>
  ctx.sql<{
    provider_message_id: string;
    status: string;
    reason: string | null;
    delivered_at: Date | null;
    read_at: Date | null;
  }>(`SELECT provider_message_id, status, reason, delivered_at, read_at FROM notices ORDER BY id`);
const consents = () =>
  ctx.sql(`SELECT customer_id, purpose, granted, method FROM customer_consents ORDER BY id`);
const everything = async () => ({
  notices: await notices(),
  consents: await consents(),
  audits: await ctx.sql(`SELECT id FROM audit_log ORDER BY id`),
});

describe('GET /api/whatsapp/webhook: Meta’s handshake', () => {
  it('answers the challenge, as plain text, to the right verify token', async () => {
    const response = await handshake({
      'hub.mode': 'subscribe',
      'hub.verify_token': verifyToken,
      'hub.challenge': '1158201444',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe('1158201444');
  });

  it('refuses (403) a wrong or missing token, another mode, no challenge', async () => {
    const queries: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.verify_token': `${verifyToken}x`, 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': verifyToken.slice(1), 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': '', 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.challenge': '1' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': verifyToken, 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': verifyToken },
    ];
    for (const query of queries) {
      const response = await handshake(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(403);
      expect(response.json().message).toBe(WHATSAPP_MESSAGES.webhookTokenWrong);
    }
  });
});

describe('POST /api/whatsapp/webhook: Meta’s events', () => {
  it('does nothing (401) without the app secret’s signature over the body as sent', async () => {
    const body = event(status(SENT_ID, 'delivered', 1764400100));
    const before = await everything();
    for (const signature of [
      null,
      '',
      signWebhook(body, 'another-app-secret-000000000000'),
      signWebhook(`${body} `, APP_SECRET),
      // The right digest without its prefix, or in another case of the prefix.
      signWebhook(body, APP_SECRET).slice('sha256='.length),
      signWebhook(body, APP_SECRET).replace('sha256=', 'SHA256='),
      'sha256=' + '0'.repeat(64),
      'sha256=zz',
    ]) {
      const response = await post(body, signature);
      expect(response.statusCode, String(signature)).toBe(401);
      expect(response.json().message).toBe(WHATSAPP_MESSAGES.webhookUnsigned);
    }
    // The body re-serialized (spaces, key order) is not the body that was signed.
    const reshaped = JSON.stringify(JSON.parse(body), null, 2);
    expect((await post(reshaped, signWebhook(body, APP_SECRET))).statusCode).toBe(401);
    expect(await everything()).toEqual(before);
  });

  it('refuses (400) a signed body that is no event Kanak reads, and changes nothing', async () => {
    const before = await everything();
    for (const body of [
      'not json at all',
      '{"entry": "nope"}',
      JSON.stringify({ entry: [{ changes: [{ value: { statuses: [{ id: SENT_ID }] } }] }] }),
      event({ statuses: [{ id: SENT_ID, status: 'read', timestamp: 'yesterday' }] }),
      '',
    ]) {
      const response = await post(body);
      expect(response.statusCode, body).toBe(400);
      expect(response.json().message).toBe(WHATSAPP_MESSAGES.webhookUnreadable);
    }
    expect(await everything()).toEqual(before);
  });

  it('records delivered and read on the notice of that message; a repeat changes nothing', async () => {
    const delivered = event(status(SENT_ID, 'delivered', 1764400100));
    expect((await post(delivered)).statusCode).toBe(200);
    const [first] = await notices();
    expect(first!.delivered_at).toEqual(new Date(1764400100 * 1000));
    expect(first!.read_at).toBeNull();
    expect(first!.status).toBe('sent');

    const read = event(status(SENT_ID, 'read', 1764400200));
    expect((await post(read)).statusCode).toBe(200);
    const afterRead = await notices();
    expect(afterRead[0]!.read_at).toEqual(new Date(1764400200 * 1000));
    expect(afterRead[0]!.delivered_at).toEqual(new Date(1764400100 * 1000));

    // Meta delivers an event again until it hears 200, and in any order.
    const before = await everything();
    expect((await post(delivered)).statusCode).toBe(200);
    expect((await post(read)).statusCode).toBe(200);
    expect((await post(event(status(SENT_ID, 'sent', 1764400050)))).statusCode).toBe(200);
    // A message no notice was sent as: nothing to record.
    expect((await post(event(status('wamid.UNKNOWN', 'read', 1764400300)))).statusCode).toBe(200);
    expect(await everything()).toEqual(before);
  });

  it('marks a message WhatsApp could not deliver failed, with Meta’s reason, once', async () => {
    const failed = event(
      status(OTHER_ID, 'failed', 1764400400, {
        errors: [
          {
            code: 131026,
            title: 'Message undeliverable',
            message: 'Message undeliverable',
            error_data: { details: 'The recipient is not on WhatsApp.' },
          },
        ],
      }),
    );
    expect((await post(failed)).statusCode).toBe(200);
    const [, other] = await notices();
    expect(other!.status).toBe('failed');
    expect(other!.reason).toBe(
      WHATSAPP_MESSAGES.notDelivered('The recipient is not on WhatsApp.', 131026),
    );
    const before = await everything();
    expect((await post(failed)).statusCode).toBe(200);
    // A delivered notice is never marked failed after it.
    expect((await post(event(status(SENT_ID, 'failed', 1764400500)))).statusCode).toBe(200);
    expect(await everything()).toEqual(before);
  });

  it('takes a STOP from a customer as their marketing consent withdrawn, via WhatsApp, once', async () => {
    const stop = event(said(`91${stopper.mobileno}`, '  stop '));
    expect((await post(stop)).statusCode).toBe(200);
    const rows = await ctx.sql<{ granted: boolean; method: string; recorded_by: number | null }>(
      `SELECT granted, method, recorded_by FROM customer_consents
        WHERE customer_id = $1 AND purpose = 'marketing' ORDER BY id`,
      [stopper.custid],
    );
    expect(rows.map((row) => [row.granted, row.method])).toEqual([
      [true, 'staff'],
      [false, 'whatsapp'],
    ]);
    expect(rows[1]!.recorded_by).toBeNull();
    const [audit] = await ctx.sql<{ detail: Record<string, unknown> }>(
      `SELECT detail FROM audit_log WHERE action = 'consent.withdraw' AND entity_id = $1`,
      [String(stopper.custid)],
    );
    expect(audit!.detail).toMatchObject({
      by: 'the customer',
      via: 'WhatsApp',
      purpose: 'marketing',
    });
    // The customer's own view says so.
    const seen = await ctx.post('/api/customers/get-customer-data', { mobileno: stopper.mobileno });
    expect(seen.json().data.consents.marketing).toBe(false);

    // Said again, or as a button's payload: already withdrawn, nothing more.
    const before = await everything();
    expect((await post(stop)).statusCode).toBe(200);
    const button = event({
      messages: [
        {
          from: `91${stopper.mobileno}`,
          id: 'wamid.IN2',
          timestamp: '1764400600',
          type: 'button',
          button: { payload: 'STOP', text: 'Stop promotions' },
        },
      ],
    });
    expect((await post(button)).statusCode).toBe(200);
    expect(await everything()).toEqual(before);
  });

  it('records a STOP delivered twice at once as one withdrawal', async () => {
    const mobile = '9812300077';
    const saved = await ctx.post('/api/customers/update-customer-data', {
      formData: { custid: null, mobileno: mobile, custname: 'Twice Told' },
    });
    const custid = saved.json().data.custid as number;
    await ctx.post('/api/customers/consent', { custid, purpose: 'marketing', granted: true });
    const stop = event(said(`91${mobile}`, 'STOP'));
    const answers = await Promise.all([post(stop), post(stop), post(stop)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const rows = await ctx.sql<{ granted: boolean }>(
      `SELECT granted FROM customer_consents WHERE customer_id = $1 AND purpose = 'marketing'`,
      [custid],
    );
    expect(rows.map((row) => row.granted).sort()).toEqual([false, true]);
  });

  it('takes no other word as STOP, and no STOP from a number that is no customer’s', async () => {
    const before = await everything();
    for (const body of [
      event(said(`91${stranger.mobileno}`, 'Please stop by the shop')),
      event(said(`91${stranger.mobileno}`, 'STOPP')),
      event(said('919000000999', 'STOP')),
      event(said('449876512346', 'STOP')),
    ])
      expect((await post(body)).statusCode).toBe(200);
    expect(await everything()).toEqual(before);
  });

  it('lets no other spelling of its path past the signature', async () => {
    const body = event(said(`91${stranger.mobileno}`, 'STOP'));
    const before = await everything();
    for (const { target, reachesRoute } of pathSpellings(PATH)) {
      const answer = await rawRequest(port, {
        method: 'POST',
        target,
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signWebhook(body, 'a-guess-at-the-secret'),
        },
        body,
      });
      if (reachesRoute) expect(answer.status, target).toBe(401);
      else expect([400, 401, 404], target).toContain(answer.status);
    }
    expect(await everything()).toEqual(before);
    // The same event, signed, through the path itself: the stranger's STOP is taken.
    expect((await post(body)).statusCode).toBe(200);
    const [row] = await ctx.sql<{ method: string }>(
      `SELECT method FROM customer_consents WHERE customer_id = $1 ORDER BY id DESC LIMIT 1`,
      [stranger.custid],
    );
    expect(row!.method).toBe('whatsapp');
  });
});
