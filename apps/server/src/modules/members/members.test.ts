import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  API_PREFIX,
  MEMBER_LIMITS,
  MEMBER_MESSAGES,
  MESSAGES,
  MEMBER_API_PATHS,
} from '@kanak/contract';
import { connectDatabase } from '../../db/client.js';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fake-razorpay.js';
import {
  appOnDatabase,
  authed,
  createTestContext,
  servicesOn,
  staffSession,
} from '../../../test/helpers.js';
import { noticeShop, type NoticeShop } from '../../../test/notices.js';

/**
 * The customer's side as an attacker would try it: sign-in by code (enumeration, limits in
 * parallel, wrong, reused and expired codes), token audiences both ways, another customer's
 * data, and online installments against a fake Razorpay with real signatures (forged, repeated
 * and racing deliveries, a month already paid at the counter, orders left open).
 */

const TODAY = '2026-03-10';
let shop: NoticeShop;
let razorpay: FakeRazorpay;
let posKey: string;

const url = (path: string, params: Record<string, string | number> = {}) =>
  API_PREFIX +
  Object.entries(params).reduce((p, [name, value]) => p.replace(`:${name}`, String(value)), path);

let address = 0;
/** A client of its own address, so the per-address limit is the test's to reach. */
const from = () => `10.9.${Math.floor(++address / 250)}.${address % 250}`;

const askCode = (mobile: string, remoteAddress = from()) =>
  shop.app.inject({
    method: 'POST',
    url: url(MEMBER_API_PATHS.memberOtp),
    payload: { mobile },
    remoteAddress,
  });
const verify = (mobile: string, code: string, remoteAddress = from()) =>
  shop.app.inject({
    method: 'POST',
    url: url(MEMBER_API_PATHS.memberVerify),
    payload: { mobile, code },
    remoteAddress,
  });
const asStaff = (token: string, method: 'GET' | 'POST', path: string, payload?: object) =>
  shop.app.inject(authed(token, { method, url: path, ...(payload ? { payload } : {}) }));
const asMember = (token: string, method: 'GET' | 'POST', path: string, payload?: object) =>
  shop.app.inject({
    method,
    url: path,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

/** The code the fake panel received for the number. */
async function codeSentTo(mobile: string, count = 1) {
  return vi.waitFor(() => {
    const sent = shop.fake.messages.filter((message) => message.mobile === mobile);
    expect(sent.length).toBe(count);
    return /(\d{6})/.exec(sent.at(-1)!.text)![1]!;
  });
}

async function signIn(mobile: string) {
  const before = shop.fake.messages.filter((message) => message.mobile === mobile).length;
  expect((await askCode(mobile)).statusCode).toBe(200);
  const code = await codeSentTo(mobile, before + 1);
  const response = await verify(mobile, code);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { token: string } }>().data.token;
}

/** A customer with an active scheme started in January (its January installment in cash). */
async function customerWithScheme(mobile: string, name: string, amount = 2500) {
  const custid = await shop.customer(mobile, name);
  const generated = await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
    custid,
    mobileno: mobile,
    custname: name,
    startdt: '2026-01-05',
    amount,
  });
  const schemeid = generated.data.schemeid;
  await shop.call(API_PATHS.activateScheme, { schemeid, date: '2026-01-05', mode: 'cash' });
  return { custid, schemeid };
}

beforeAll(async () => {
  razorpay = await startFakeRazorpay();
  shop = await noticeShop({
    clock: () => new Date(`${TODAY}T12:00:00+05:30`),
    env: {
      RAZORPAY_URL: razorpay.url,
      RAZORPAY_KEY_ID: razorpay.keyId,
      RAZORPAY_KEY_SECRET: razorpay.keySecret,
      RAZORPAY_WEBHOOK_SECRET: razorpay.webhookSecret,
    },
  });
  await shop.savePanel(1);
  posKey = (await shop.call<{ data: { key: string } }>(API_PATHS.apiKeys, { label: 'Counter 1' }))
    .data.key;
});
afterAll(async () => {
  await shop.close();
  await razorpay.close();
});

describe('sign-in by a one-time code', () => {
  it('answers a stranger as it answers a customer, and sends a code only to the customer', async () => {
    await shop.customer('9822200001', 'Asha Rao');
    const customer = await askCode('9822200001');
    const stranger = await askCode('9822200009');
    expect(stranger.statusCode).toBe(customer.statusCode);
    expect(stranger.json()).toEqual(customer.json());
    expect(customer.json()).toEqual({ success: true, data: { expiresInSeconds: 300 } });
    const code = await codeSentTo('9822200001');
    expect(shop.fake.messages.some((message) => message.mobile === '9822200009')).toBe(false);
    // Neither the code nor the number is kept readable.
    const rows = await shop.sql<{ code_hash: string; mobile_hash: string }>(
      'SELECT code_hash, mobile_hash FROM member_codes',
    );
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain('9822200001');
    // A stranger's code check fails as a wrong one does.
    const strangerTry = await verify('9822200009', code);
    const wrongTry = await verify('9822200001', code === '000000' ? '000001' : '000000');
    expect(strangerTry.statusCode).toBe(401);
    expect(strangerTry.json()).toEqual(wrongTry.json());
    // The right code once; used, it is dead.
    expect((await verify('9822200001', code)).statusCode).toBe(200);
    expect((await verify('9822200001', code)).json().message).toBe(MEMBER_MESSAGES.wrongCode);
  });

  it("does the same work for a stranger's number as for a customer's, so its time tells nothing", async () => {
    // A server whose every statement to the database is noted, in order, text only.
    const noted = connectDatabase(shop.database.pool.options.connectionString!, { max: 4 });
    const statements: string[] = [];
    noted.pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((config: unknown, ...rest: unknown[]) => {
        statements.push(typeof config === 'string' ? config : (config as { text: string }).text);
        return query(config, ...rest);
      }) as typeof client.query;
    });
    const other = await appOnDatabase(noted, { MESSAGING_PANEL1_URL: shop.fake.url });
    try {
      const ask = (mobile: string) =>
        other.inject({
          method: 'POST',
          url: url(MEMBER_API_PATHS.memberOtp),
          payload: { mobile },
          remoteAddress: from(),
        });
      await shop.customer('9822200060', 'Ira Sen');
      statements.length = 0;
      const customer = await ask('9822200060');
      await codeSentTo('9822200060');
      const customerWork = statements.splice(0);
      const stranger = await ask('9822200069');
      // The same statements in the same order, the code sent after the answer included (its
      // messaging panel read): only the provider is never called for a stranger.
      await vi.waitFor(() => expect(statements).toEqual(customerWork), { timeout: 3_000 });
      expect(customerWork.some((text) => /insert into "member_codes"/i.test(text))).toBe(true);
      expect(shop.fake.messages.some((message) => message.mobile === '9822200069')).toBe(false);

      // Byte for byte the same answer: status, body, and every header but the date, the
      // request's id and the time it took.
      const varying = new Set(['date', 'x-request-id', 'server-timing']);
      const answer = (response: typeof customer) => ({
        status: response.statusCode,
        body: response.body,
        headers: Object.entries(response.headers).filter(([name]) => !varying.has(name)),
      });
      expect(answer(stranger)).toEqual(answer(customer));

      // Each left one code row of the same shape; the stranger's belongs to nobody.
      const rows = await shop.sql<Record<string, unknown>>(
        `SELECT customer_id IS NOT NULL AS "forCustomer", length(code_hash) AS "hashLength",
                length(mobile_hash) AS "mobileHashLength", tries, used_at IS NULL AS live,
                round(extract(epoch FROM expires_at - created_at)) AS lifetime
           FROM member_codes ORDER BY id DESC LIMIT 2`,
      );
      expect(rows).toEqual([
        { ...rows[1], forCustomer: false },
        { ...rows[0], forCustomer: true },
      ]);
      expect(rows[0]).toMatchObject({ tries: 0, live: true, lifetime: '300' });

      // A stranger's code check counts a try on that row, as a customer's wrong code does, and
      // its code, were it ever guessed, opens nothing: it belongs to no customer.
      expect((await verify('9822200069', '123456')).json().message).toBe(
        MEMBER_MESSAGES.wrongCodeTriesLeft(MEMBER_LIMITS.codeTries - 1),
      );
      const [tried] = await shop.sql<{ tries: number }>(
        'SELECT tries FROM member_codes WHERE customer_id IS NULL ORDER BY id DESC LIMIT 1',
      );
      expect(tried!.tries).toBe(1);
      await shop.sql(`DELETE FROM rate_limit_hits WHERE key LIKE 'member-codes-minute %'`);
      expect((await askCode('9822200060')).statusCode).toBe(200);
      const right = await codeSentTo('9822200060', 2);
      // As if the number had been no customer's when the code was recorded.
      await shop.sql(
        `UPDATE member_codes SET customer_id = NULL WHERE id = (SELECT max(id) FROM member_codes)`,
      );
      const opened = await verify('9822200060', right);
      expect(opened.statusCode, opened.body).toBe(401);
      expect(opened.json().message).toBe(
        MEMBER_MESSAGES.wrongCodeTriesLeft(MEMBER_LIMITS.codeTries - 1),
      );
    } finally {
      await other.close();
      await noted.close();
    }
  });

  it('says how many tries a wrong code leaves, and to ask for a new code only once none do', async () => {
    await shop.customer('9822200070', 'Nila Das');
    expect((await askCode('9822200070')).statusCode).toBe(200);
    const code = await codeSentTo('9822200070');
    const wrong = code === '000000' ? '000001' : '000000';
    const said: string[] = [];
    for (let i = 0; i < MEMBER_LIMITS.codeTries; i++) {
      const answer = await verify('9822200070', wrong);
      expect(answer.statusCode).toBe(401);
      said.push(answer.json<{ message: string }>().message);
    }
    expect(said).toEqual([
      'The code is wrong. Please check it and try again: 4 tries left.',
      'The code is wrong. Please check it and try again: 3 tries left.',
      'The code is wrong. Please check it and try again: 2 tries left.',
      'The code is wrong. Please check it and try again: 1 try left.',
      MEMBER_MESSAGES.wrongCode,
    ]);
    // Its tries spent, the right code opens nothing either: a new one must be asked for.
    expect((await verify('9822200070', code)).json().message).toBe(MEMBER_MESSAGES.wrongCode);
  });

  it('lets one code a minute through per number, however many are asked for at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => askCode('9822200010')));
    expect(answers.map((answer) => answer.statusCode).toSorted()).toEqual([
      200, 429, 429, 429, 429, 429,
    ]);
  });

  it('lets 20 codes an hour through per address, asked for at once', async () => {
    const here = '10.77.0.1';
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => askCode(`97000000${String(i).padStart(2, '0')}`, here)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(20);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(4);
  });

  it('lets 30 code checks an hour through per address, tried at once, the right code too', async () => {
    await shop.customer('9822200020', 'Farah Khan');
    expect((await askCode('9822200020')).statusCode).toBe(200);
    const code = await codeSentTo('9822200020');
    const here = '10.78.0.1';
    // Five tries on each of many numbers, as one address sweeping for live codes would.
    const tries = await Promise.all(
      Array.from({ length: 36 }, (_, i) =>
        verify(`96000000${String(i % 8).padStart(2, '0')}`, '123456', here),
      ),
    );
    expect(tries.filter((answer) => answer.statusCode === 401)).toHaveLength(30);
    const refused = tries.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(6);
    expect(refused[0]!.json().message).toBe(MEMBER_MESSAGES.tooManyChecks);
    // The address is stopped even with the right code; the code itself is untouched.
    expect((await verify('9822200020', code, here)).statusCode).toBe(429);
    const elsewhere = await verify('9822200020', code);
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it('ends a code after 5 wrong tries, even tried at once, and an expired one', async () => {
    await shop.customer('9822200002', 'Bina Shah');
    expect((await askCode('9822200002')).statusCode).toBe(200);
    const code = await codeSentTo('9822200002');
    const wrong = code === '111111' ? '222222' : '111111';
    const tries = await Promise.all(Array.from({ length: 7 }, () => verify('9822200002', wrong)));
    expect(tries.every((answer) => answer.statusCode === 401)).toBe(true);
    const [row] = await shop.sql<{ tries: number }>(
      'SELECT tries FROM member_codes ORDER BY id DESC LIMIT 1',
    );
    expect(row!.tries).toBe(5);
    expect((await verify('9822200002', code)).statusCode).toBe(401);

    await shop.customer('9822200003', 'Chitra Iyer');
    expect((await askCode('9822200003')).statusCode).toBe(200);
    const late = await codeSentTo('9822200003');
    await shop.sql(`UPDATE member_codes SET expires_at = now() - interval '1 second'`);
    expect((await verify('9822200003', late)).statusCode).toBe(401);
  });

  it('answers many customers looking at their home page at once (no read holds two connections)', async () => {
    await shop.customer('9822200030', 'Kavya Menon');
    const token = await signIn('9822200030');
    // Three times the pool's connections: a read that asked for a second connection while
    // holding its first would starve the pool, and these would wait forever.
    const pages = await Promise.all(
      Array.from({ length: 30 }, () => asMember(token, 'GET', url(MEMBER_API_PATHS.memberMe))),
    );
    expect(pages.map((page) => page.statusCode)).toEqual(Array(30).fill(200));
  }, 20_000);

  it('keeps member and staff tokens apart, and logout and erasure end a member token', async () => {
    await shop.customer('9822200004', 'Deepa Nair');
    const token = await signIn('9822200004');
    expect((await asMember(token, 'GET', url(MEMBER_API_PATHS.memberMe))).statusCode).toBe(200);
    // A member token opens no staff route; a staff token and an API key no member route.
    expect((await asMember(token, 'GET', url(API_PATHS.me))).statusCode).toBe(401);
    expect((await asMember(shop.token, 'GET', url(MEMBER_API_PATHS.memberMe))).statusCode).toBe(
      401,
    );
    const withKey = await shop.app.inject({
      method: 'GET',
      url: url(MEMBER_API_PATHS.memberMe),
      headers: { 'x-api-key': posKey, authorization: `Bearer ${token}` },
    });
    expect(withKey.statusCode).toBe(401);
    expect((await asMember(token, 'POST', url(MEMBER_API_PATHS.memberLogout))).statusCode).toBe(
      200,
    );
    expect((await asMember(token, 'GET', url(MEMBER_API_PATHS.memberMe))).statusCode).toBe(401);

    // A new code for the number a minute later (the minute's limit is the database's count).
    await shop.sql(`DELETE FROM rate_limit_hits WHERE key LIKE 'member-codes-minute %'`);
    const again = await signIn('9822200004');
    const [customer] = await shop.sql<{ id: number }>(
      `SELECT id FROM customers WHERE mobileno = '9822200004'`,
    );
    expect(
      (await shop.post(url(API_PATHS.eraseCustomer), { custid: customer!.id })).statusCode,
    ).toBe(200);
    expect((await asMember(again, 'GET', url(MEMBER_API_PATHS.memberMe))).statusCode).toBe(401);
  });
});

describe("a change of the customer's mobile number", () => {
  const saveProfile = (form: { custid: number; mobileno: string; custname: string }) =>
    shop.post(url(API_PATHS.saveCustomer), { formData: form });
  /** What a signed-in member reaches: the home page, the export, a payment, a consent. */
  const memberCalls = (token: string, schemeid: number) =>
    Promise.all([
      asMember(token, 'GET', url(MEMBER_API_PATHS.memberMe)),
      asMember(token, 'GET', url(MEMBER_API_PATHS.memberDataExport)),
      asMember(token, 'POST', url(MEMBER_API_PATHS.memberPay, { schemeid })),
      asMember(token, 'POST', url(MEMBER_API_PATHS.memberConsent), {
        purpose: 'marketing',
        granted: true,
      }),
    ]);

  it("ends the old number's sessions and codes on every server; an edit that keeps the number ends nothing", async () => {
    const { custid, schemeid } = await customerWithScheme('9822200050', 'Hema Pillai');
    const token = await signIn('9822200050');
    // A code sent to the old number just before the change, not used yet.
    await shop.sql(`DELETE FROM rate_limit_hits WHERE key LIKE 'member-codes-minute %'`);
    expect((await askCode('9822200050')).statusCode).toBe(200);
    const pending = await codeSentTo('9822200050', 2);
    // A second server on the same database.
    const other = await appOnDatabase(shop.database);
    try {
      const onOther = () =>
        other.inject({
          method: 'GET',
          url: url(MEMBER_API_PATHS.memberMe),
          headers: { authorization: `Bearer ${token}` },
        });

      // The address changes, the number stays: the session goes on, everywhere.
      const kept = await saveProfile({ custid, mobileno: '9822200050', custname: 'Hema Pillai' });
      expect(kept.statusCode, kept.body).toBe(200);
      expect((await memberCalls(token, schemeid)).map((answer) => answer.statusCode)).toEqual([
        200, 200, 200, 200,
      ]);
      expect((await onOther()).statusCode).toBe(200);

      const moved = await saveProfile({ custid, mobileno: '9822200051', custname: 'Hema Pillai' });
      expect(moved.statusCode, moved.body).toBe(200);
      // The old number's holder reads nothing more, pays nothing, chooses nothing: here and on
      // the other server, from the very next request.
      const refused = await memberCalls(token, schemeid);
      expect(refused.map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401]);
      expect(refused.map((answer) => answer.json().message)).toEqual(
        Array(4).fill(MEMBER_MESSAGES.sessionExpired),
      );
      expect(refused[0]!.body).not.toContain('9822200051');
      expect((await onOther()).statusCode).toBe(401);
      // Nor does the code sent to the old number open a new session.
      expect((await verify('9822200050', pending)).statusCode).toBe(401);
    } finally {
      await other.close();
    }
    // The customer signs in on the new number.
    const renewed = await signIn('9822200051');
    expect(
      (await asMember(renewed, 'GET', url(MEMBER_API_PATHS.memberMe))).json().data,
    ).toMatchObject({ mobile: '9822200051' });
  });
});

describe('the daily purge', () => {
  it('deletes dead codes and sessions after a day and delivery ids after a month, and nothing live', async () => {
    await shop.customer('9822200040', 'Esha Rao');
    const live = await signIn('9822200040');
    await shop.sql(`DELETE FROM rate_limit_hits WHERE key LIKE 'member-codes-minute %'`);
    const old = await signIn('9822200040');
    expect((await asMember(old, 'POST', url(MEMBER_API_PATHS.memberLogout))).statusCode).toBe(200);
    // The old session ended, and everything else made, two days ago; a delivery 31 days ago.
    await shop.sql(`UPDATE member_codes SET created_at = now() - interval '2 days'`);
    await shop.sql(
      `UPDATE member_sessions SET ended_at = now() - interval '2 days' WHERE ended_at IS NOT NULL`,
    );
    await shop.sql(
      `INSERT INTO gateway_events (event_id, created_at)
       VALUES ('evt_old', now() - interval '31 days'), ('evt_new', now() - interval '29 days')`,
    );
    const counts = async () =>
      (
        await shop.sql<{ codes: number; sessions: number; events: number }>(
          `SELECT (SELECT count(*)::int FROM member_codes) AS codes,
                  (SELECT count(*)::int FROM member_sessions WHERE ended_at IS NOT NULL) AS sessions,
                  (SELECT count(*)::int FROM gateway_events WHERE event_id LIKE 'evt_%') AS events`,
        )
      )[0]!;
    const before = await counts();
    expect(before.sessions).toBeGreaterThan(0);

    const purge = () => servicesOn(shop.database).members.purgeExpired();
    expect(await purge()).toMatchObject({ codes: before.codes, sessions: before.sessions });
    expect(await counts()).toEqual({ codes: 0, sessions: 0, events: 1 });
    // A second run finds nothing more; the live session still opens the home page, the
    // purged one stays refused.
    expect(await purge()).toEqual({ codes: 0, sessions: 0, gatewayEvents: 0 });
    expect((await asMember(live, 'GET', url(MEMBER_API_PATHS.memberMe))).statusCode).toBe(200);
    expect((await asMember(old, 'GET', url(MEMBER_API_PATHS.memberMe))).statusCode).toBe(401);
  });
});

describe('the member API', () => {
  it("shows the customer's own data, never another's, without staff names or narrations", async () => {
    const mine = await customerWithScheme('9822200005', 'Esha Gupta');
    const theirs = await customerWithScheme('9822200006', 'Farah Ali');
    await shop.post(url(API_PATHS.updatePoints), {
      formData: {
        MOBILENO: '9822200005',
        POINTS: 40,
        INVDATE: TODAY,
        CASHCR: 'CR',
        NARRATION: 'Goodwill from owner1 for late delivery',
      },
    });
    const token = await signIn('9822200005');
    const me = (await asMember(token, 'GET', url(MEMBER_API_PATHS.memberMe))).json();
    expect(me.data).toMatchObject({
      custname: 'Esha Gupta',
      mobile: '9822200005',
      points: { balance: 40 },
      schemes: [{ schemeid: mine.schemeid, paid: 1, status: 'a' }],
      consents: { transactional: true },
    });
    // Their tier only once the shop has tiers, as at the counter.
    expect(me.data).not.toHaveProperty('tier');
    await shop.sql(
      `INSERT INTO tier_settings (valid_from, tiers, downgrade) VALUES (clock_timestamp(),
         '[{"code":"GOLD","name":"Gold","minSpendPaise":10000000,"earnPercent":125}]', 'never')`,
    );
    try {
      const tiered = (await asMember(token, 'GET', url(MEMBER_API_PATHS.memberMe))).json();
      expect(tiered.data.tier).toEqual({
        tier: null,
        tierName: null,
        spend12m: 0,
        nextTier: 'GOLD',
        toNextTier: 100_000,
      });
    } finally {
      await shop.sql('DELETE FROM tier_settings');
    }
    const points = await asMember(token, 'GET', `${url(MEMBER_API_PATHS.memberPoints)}?page=1`);
    expect(points.json()).toMatchObject({
      total: 1,
      data: [{ kind: 'Adjustment', points: 40, balance: 40 }],
    });
    expect(points.body).not.toContain('owner1');
    expect(points.body).not.toContain('Goodwill');
    const passbook = await asMember(
      token,
      'GET',
      url(MEMBER_API_PATHS.memberScheme, { schemeid: mine.schemeid }),
    );
    expect(passbook.json().data.rows).toMatchObject([{ no: 1, amount: 2500, mode: 'cash' }]);
    const other = await asMember(
      token,
      'GET',
      url(MEMBER_API_PATHS.memberScheme, { schemeid: theirs.schemeid }),
    );
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(MESSAGES.schemeNotFound);
    const payOther = await asMember(
      token,
      'POST',
      url(MEMBER_API_PATHS.memberPay, { schemeid: theirs.schemeid }),
    );
    expect(payOther.statusCode).toBe(404);

    const withdrawn = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberConsent), {
      purpose: 'transactional',
      granted: false,
    });
    expect(withdrawn.json().data).toEqual({ transactional: false, marketing: false });
    const [consent] = await shop.sql<{ method: string; recorded_by: number | null }>(
      `SELECT method, recorded_by FROM customer_consents WHERE customer_id = $1 ORDER BY id DESC LIMIT 1`,
      [mine.custid],
    );
    expect(consent).toEqual({ method: 'customer', recorded_by: null });
    const copy = await asMember(token, 'GET', url(MEMBER_API_PATHS.memberDataExport));
    expect(copy.json().data.profile.custid).toBe(mine.custid);
    expect(copy.json().data.pointsLedger).toMatchObject([{ credit: 40 }]);
    // The consent the owner recorded, and the owner's narration: neither name nor words.
    expect(copy.body).not.toContain('owner1');
    expect(copy.body).not.toContain('Goodwill');
  });
});

describe('online installments', () => {
  async function ordered(mobile: string, name: string, amount?: number) {
    const { schemeid } = await customerWithScheme(mobile, name, amount);
    const token = await signIn(mobile);
    const order = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPay, { schemeid }));
    expect(order.statusCode, order.body).toBe(200);
    const data = order.json<{ data: { orderId: string; amount: number } }>().data;
    return { schemeid, token, ...data };
  }
  const installments = (schemeid: number) =>
    shop.sql<{ mode: string; reference: string; period: string }>(
      'SELECT mode, reference, period FROM scheme_installments WHERE scheme_id = $1 ORDER BY id',
      [schemeid],
    );
  const deliver = (delivery: { body: string; headers: Record<string, string> }) =>
    shop.app.inject({
      method: 'POST',
      url: url(MEMBER_API_PATHS.razorpayWebhook),
      payload: delivery.body,
      headers: delivery.headers,
    });

  it('records one installment when the checkout and the webhook race, and drops repeats and forgeries', async () => {
    const { schemeid, token, orderId, amount } = await ordered('9822200007', 'Gita Menon');
    expect(amount).toBe(250_000);
    expect(razorpay.orders.get(orderId)).toMatchObject({
      amount: 250_000,
      currency: 'INR',
      notes: { schemeid: String(schemeid), period: '2026-03' },
    });
    // Staff see the payment started, before any money arrives.
    const started = await shop.sql<{ after: object }>(
      `SELECT detail -> 'after' AS after FROM audit_log
        WHERE action = 'scheme.onlineOrder' AND entity_id = $1`,
      [String(schemeid)],
    );
    expect(started.map((row) => row.after)).toEqual([
      { orderId, amount: 2500, forMonth: '2026-03', by: 'the customer' },
    ]);
    const paid = razorpay.pay(orderId);
    const forged = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), {
      ...paid,
      razorpay_signature: 'ab'.repeat(32),
    });
    expect(forged.statusCode).toBe(400);
    const delivery = razorpay.webhook(orderId, paid.razorpay_payment_id);
    const tampered = await deliver({
      ...delivery,
      body: delivery.body.replace('"captured"', '"captured" '),
    });
    expect(tampered.statusCode).toBe(401);
    expect(await installments(schemeid)).toHaveLength(1);

    const [checkout, hook, hookAgain] = await Promise.all([
      asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), paid),
      deliver(delivery),
      deliver(delivery),
    ]);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(hook.statusCode).toBe(200);
    expect(hookAgain.statusCode).toBe(200);
    expect(checkout.json().data).toMatchObject({
      overpayment: false,
      receipt: { mode: 'online', amount: 2500, reference: paid.razorpay_payment_id },
    });
    expect(await installments(schemeid)).toEqual([
      expect.objectContaining({ mode: 'cash' }),
      { mode: 'online', reference: paid.razorpay_payment_id, period: '2026-03' },
    ]);
    // Staff see it in the scheme's statement like any other.
    const statement = await shop.post(url(API_PATHS.schemeStatement), { schemeid });
    expect(statement.json().data.at(-1)).toMatchObject({ mode: 'online', amount: 2500 });
  });

  it('notes a payment for a month paid at the counter meanwhile as an overpayment', async () => {
    const { schemeid, token, orderId } = await ordered('9822200008', 'Hema Das');
    await shop.call(API_PATHS.addInstallment, { schemeid, date: TODAY, mode: 'cash' });
    const paid = razorpay.pay(orderId);
    const answer = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), paid);
    expect(answer.json().data).toEqual({ receipt: null, overpayment: true, checking: false });
    expect((await installments(schemeid)).map((row) => row.mode)).toEqual(['cash', 'cash']);
    const [order] = await shop.sql<{ status: string }>(
      'SELECT status FROM online_orders WHERE order_id = $1',
      [orderId],
    );
    expect(order!.status).toBe('overpaid');
  });

  it('notes a second payment of a paid order once, for staff to refund, whoever sees it', async () => {
    const { schemeid, token, orderId } = await ordered('9822200013', 'Kavya Rao');
    const first = razorpay.pay(orderId);
    const paid = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), first);
    expect(paid.json().data.overpayment).toBe(false);
    const second = razorpay.pay(orderId);
    const [checkout, hook] = await Promise.all([
      asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), second),
      deliver(razorpay.webhook(orderId, second.razorpay_payment_id)),
    ]);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(checkout.json().data).toEqual({ receipt: null, overpayment: true, checking: false });
    expect(hook.statusCode).toBe(200);
    expect((await installments(schemeid)).map((row) => row.reference)).toEqual([
      expect.any(String),
      first.razorpay_payment_id,
    ]);
    expect(
      await shop.sql(
        'SELECT order_id, amount_paise::int AS amount FROM online_extra_payments WHERE payment_id = $1',
        [second.razorpay_payment_id],
      ),
    ).toEqual([{ order_id: orderId, amount: 250_000 }]);
    const [audit] = await shop.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log
        WHERE action = 'scheme.onlineOverpayment' AND detail -> 'after' ->> 'paymentId' = $1`,
      [second.razorpay_payment_id],
    );
    expect(audit!.n).toBe(1);
  });

  it('records no installment for a payment of another amount, shows it to staff to refund, and a replay changes nothing', async () => {
    const { schemeid, token, orderId, amount } = await ordered('9822200015', 'Mala Iyer', 5000);
    expect(amount).toBe(500_000);
    // The gateway says ₹1.00 was captured for the ₹5,000 order, signed with the real secret.
    const paid = razorpay.pay(orderId, { amount: 100 });
    const delivery = razorpay.webhook(orderId, paid.razorpay_payment_id);
    expect(JSON.parse(delivery.body).payload.payment.entity.amount).toBe(100);
    const hook = await deliver(delivery);
    expect(hook.statusCode, hook.body).toBe(200);
    expect((await installments(schemeid)).map((row) => row.mode)).toEqual(['cash']);
    const paidCount = async () =>
      (
        (await asMember(token, 'GET', url(MEMBER_API_PATHS.memberMe))).json().data.schemes as {
          schemeid: number;
          paid: number;
        }[]
      ).find((scheme) => scheme.schemeid === schemeid)!.paid;
    expect(await paidCount()).toBe(1);
    const orderRow = () =>
      shop.sql<{ status: string; received: number | null; payment_id: string }>(
        `SELECT status, received_paise::int AS received, payment_id FROM online_orders
          WHERE order_id = $1`,
        [orderId],
      );
    expect(await orderRow()).toEqual([
      { status: 'mismatch', received: 100, payment_id: paid.razorpay_payment_id },
    ]);

    // The checkout's own word, the same delivery again and a fresh delivery of the same
    // payment: still no installment, and the customer is told the shop is checking it.
    const [checkout, again, redelivered] = await Promise.all([
      asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), paid),
      deliver(delivery),
      deliver(razorpay.webhook(orderId, paid.razorpay_payment_id)),
    ]);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(checkout.json().data).toEqual({ receipt: null, overpayment: false, checking: true });
    expect(again.statusCode).toBe(200);
    expect(redelivered.statusCode).toBe(200);
    expect((await installments(schemeid)).map((row) => row.mode)).toEqual(['cash']);
    expect(await paidCount()).toBe(1);
    expect(await orderRow()).toEqual([
      { status: 'mismatch', received: 100, payment_id: paid.razorpay_payment_id },
    ]);
    const audit = await shop.sql<{ after: object }>(
      `SELECT detail -> 'after' AS after FROM audit_log
        WHERE action = 'scheme.onlinePaymentMismatch' AND entity_id = $1`,
      [String(schemeid)],
    );
    expect(audit.map((row) => row.after)).toEqual([
      {
        orderId,
        paymentId: paid.razorpay_payment_id,
        received: 1,
        expected: 5000,
        forMonth: '2026-03',
        by: 'webhook',
        refund: 'due',
      },
    ]);

    // Staff see it among the payments to refund, with both amounts, until it is refunded.
    const list = async () =>
      (
        (await asStaff(shop.token, 'GET', url(API_PATHS.onlineRefunds))).json().data as {
          paymentId: string;
        }[]
      ).filter((row) => row.paymentId === paid.razorpay_payment_id);
    expect(await list()).toEqual([
      expect.objectContaining({
        orderId,
        schemeid,
        amount: 1,
        expected: 5000,
        reason: 'amountMismatch',
      }),
    ]);
    const marked = await shop.post(url(API_PATHS.markOnlineRefund), {
      paymentId: paid.razorpay_payment_id,
      reference: 'rfnd_MISMATCH0001',
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(await list()).toEqual([]);
    const [refunded] = await shop.sql<{ after: { amount: number } }>(
      `SELECT detail -> 'after' AS after FROM audit_log
        WHERE action = 'scheme.onlineRefunded' AND detail -> 'after' ->> 'paymentId' = $1`,
      [paid.razorpay_payment_id],
    );
    expect(refunded!.after.amount).toBe(1);
    // The installment is still due: the customer may pay it properly.
    const next = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPay, { schemeid }));
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().data.orderId).not.toBe(orderId);
  });

  it('asks the gateway what the checkout paid before recording it', async () => {
    const { schemeid, token, orderId } = await ordered('9822200016', 'Nila Bose', 5000);
    const paid = razorpay.pay(orderId, { amount: 499_900 });
    const checkout = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), paid);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(checkout.json().data).toEqual({ receipt: null, overpayment: false, checking: true });
    expect((await installments(schemeid)).map((row) => row.mode)).toEqual(['cash']);
    expect(
      await shop.sql(
        'SELECT status, received_paise::int AS received FROM online_orders WHERE order_id = $1',
        [orderId],
      ),
    ).toEqual([{ status: 'mismatch', received: 499_900 }]);
  });

  it('limits the orders a customer starts: 20 at once get at most the hour’s allowance, Pay again reuses the open order', async () => {
    const { schemeid } = await customerWithScheme('9822200017', 'Oviya Nair');
    const token = await signIn('9822200017');
    const before = razorpay.orders.size;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        asMember(token, 'POST', url(MEMBER_API_PATHS.memberPay, { schemeid })),
      ),
    );
    const ok = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(ok.length + refused.length).toBe(20);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length).toBeLessThanOrEqual(MEMBER_LIMITS.ordersPerHourPerCustomer);
    expect(refused[0]!.json().message).toBe(MEMBER_MESSAGES.tooManyOrders);
    // At most the allowance reached the gateway, and one order is kept: all are told to pay it.
    expect(razorpay.orders.size - before).toBeLessThanOrEqual(
      MEMBER_LIMITS.ordersPerHourPerCustomer,
    );
    const kept = await shop.sql<{ order_id: string }>(
      'SELECT order_id FROM online_orders WHERE scheme_id = $1',
      [schemeid],
    );
    expect(kept).toHaveLength(1);
    expect(new Set(ok.map((answer) => answer.json().data.orderId))).toEqual(
      new Set([kept[0]!.order_id]),
    );
    // Pay pressed again later: the same order, without counting against the hour.
    const again = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPay, { schemeid }));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.orderId).toBe(kept[0]!.order_id);
  });

  it('refuses a new order while the customer has the most open orders allowed', async () => {
    const mobile = '9822200018';
    const custid = await shop.customer(mobile, 'Padma Shah');
    const schemeids: number[] = [];
    for (let n = 0; n <= MEMBER_LIMITS.openOrdersPerCustomer; n++) {
      const { schemeid } = (
        await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
          custid,
          mobileno: mobile,
          custname: 'Padma Shah',
          startdt: '2026-01-05',
          amount: 1000,
        })
      ).data;
      await shop.call(API_PATHS.activateScheme, { schemeid, date: '2026-01-05', mode: 'cash' });
      schemeids.push(schemeid);
    }
    const token = await signIn(mobile);
    const answers = await Promise.all(
      schemeids.map((schemeid) =>
        asMember(token, 'POST', url(MEMBER_API_PATHS.memberPay, { schemeid })),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(
      MEMBER_LIMITS.openOrdersPerCustomer,
    );
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.json().message).toBe(MEMBER_MESSAGES.tooManyOpenOrders);
    const [open] = await shop.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM online_orders WHERE customer_id = $1 AND status = 'created'`,
      [custid],
    );
    expect(open!.n).toBe(MEMBER_LIMITS.openOrdersPerCustomer);
  });

  it("lists the payments to refund to the scheme's branch and the owner, and notes each refunded once", async () => {
    const { schemeid, token, orderId } = await ordered('9822200014', 'Lata Pillai');
    await shop.call(API_PATHS.addInstallment, { schemeid, date: TODAY, mode: 'cash' });
    const paid = razorpay.pay(orderId);
    await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), paid);
    const paymentId = paid.razorpay_payment_id;

    const staffOf = async (username: string, role: 'manager' | 'cashier', branch?: string) =>
      (await staffSession(shop, username, role, branch)).token;
    expect(
      (
        await shop.post(url(API_PATHS.saveBranch), {
          code: 'PUNE',
          name: 'Pune',
          address: '1 MG Road',
          phone: '020 2345 6789',
        })
      ).statusCode,
    ).toBe(200);
    const [main, pune, cashier] = [
      await staffOf('refundsMain', 'manager'),
      await staffOf('refundsPune', 'manager', 'PUNE'),
      await staffOf('refundsCashier', 'cashier'),
    ];
    const list = (as: string) => asStaff(as, 'GET', url(API_PATHS.onlineRefunds));
    const mark = (as: string, reference = 'rfnd_29QQoUBi66xm2f') =>
      asStaff(as, 'POST', url(API_PATHS.markOnlineRefund), { paymentId, reference });

    const owners = (await list(shop.token)).json().data as { paymentId: string; reason: string }[];
    expect(owners).toContainEqual({
      paymentId,
      orderId,
      schemeid,
      custname: 'Lata Pillai',
      mobileno: '9822200014',
      amount: 2500,
      expected: 2500,
      forMonth: '2026-03',
      paidAt: expect.any(String),
      reason: 'monthPaid',
      branch: 'MAIN',
    });
    // The second payments of the test before are here too, with their reason.
    expect(owners.map((row) => row.reason)).toContain('paidTwice');
    expect((await list(main)).json().data).toEqual(owners);
    expect((await list(pune)).json().data).toEqual([]);
    expect((await list(cashier)).statusCode).toBe(403);

    // Another branch's manager and a cashier cannot note it; a bad reference changes nothing.
    expect((await mark(pune)).statusCode).toBe(403);
    expect((await mark(cashier)).statusCode).toBe(403);
    const bad = await mark(main, 'rfnd 1; DROP');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(
      'Refund reference can have letters, digits, _ - and / only.',
    );
    // Two presses at once: noted once.
    const both = await Promise.all([mark(main), mark(shop.token)]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((answer) => answer.statusCode === 409)!.json().message).toBe(
      MESSAGES.onlineRefundNotDue,
    );
    expect(
      await shop.sql(
        `SELECT refund_reference FROM online_orders WHERE order_id = $1 AND refunded_at IS NOT NULL`,
        [orderId],
      ),
    ).toEqual([{ refund_reference: 'rfnd_29QQoUBi66xm2f' }]);
    const [audit] = await shop.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log
        WHERE action = 'scheme.onlineRefunded' AND detail -> 'after' ->> 'paymentId' = $1`,
      [paymentId],
    );
    expect(audit!.n).toBe(1);
    expect(
      ((await list(shop.token)).json().data as { paymentId: string }[]).map((row) => row.paymentId),
    ).not.toContain(paymentId);
  });

  it('keeps a weight installment paid before the day’s gold rate open, and records it once the rate is in', async () => {
    const mobile = '9822200012';
    const custid = await shop.customer(mobile, 'Jaya Rao');
    await shop.call(API_PATHS.saveSchemePlan, {
      code: 'GOLD11',
      name: 'Gold savings',
      kind: 'weight',
      installments: 11,
      minAmount: 1000,
      bonusPercent: 100,
    });
    await shop.call(API_PATHS.saveGoldRate, { date: '2026-01-05', rate22k: 6000, rate24k: 6500 });
    const { schemeid } = (
      await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
        custid,
        mobileno: mobile,
        custname: 'Jaya Rao',
        startdt: '2026-01-05',
        amount: 3000,
        plan: 'GOLD11',
      })
    ).data;
    await shop.call(API_PATHS.activateScheme, { schemeid, date: '2026-01-05', mode: 'cash' });
    const token = await signIn(mobile);
    const order = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPay, { schemeid }));
    const { orderId } = order.json<{ data: { orderId: string } }>().data;
    const paid = razorpay.pay(orderId);

    const early = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), paid);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(MESSAGES.goldRateMissing);
    const [open] = await shop.sql<{ status: string }>(
      'SELECT status FROM online_orders WHERE order_id = $1',
      [orderId],
    );
    expect(open!.status).toBe('created');

    await shop.call(API_PATHS.saveGoldRate, { date: TODAY, rate22k: 6250.5, rate24k: 6800 });
    const later = await asMember(token, 'POST', url(MEMBER_API_PATHS.memberPaymentVerify), paid);
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().data.overpayment).toBe(false);
    expect(
      await shop.sql('SELECT mode, mg FROM scheme_installments WHERE scheme_id = $1 ORDER BY id', [
        schemeid,
      ]),
    ).toEqual([
      { mode: 'cash', mg: 500 },
      // floor(₹3,000 × 1000 / ₹6,250.50 a gram) mg
      { mode: 'online', mg: 479 },
    ]);
    // The customer's passbook shows each installment's rate and gold.
    const passbook = await asMember(token, 'GET', url(MEMBER_API_PATHS.memberScheme, { schemeid }));
    expect(passbook.statusCode, passbook.body).toBe(200);
    expect(
      passbook
        .json()
        .data.rows.map((row: { rate: number; grams: number }) => [row.rate, row.grams]),
    ).toEqual([
      [6000, 0.5],
      [6250.5, 0.479],
    ]);
  });

  it('records, by asking the gateway, a payment whose checkout and webhook never arrived', async () => {
    const { schemeid, orderId } = await ordered('9822200011', 'Indu Pillai');
    razorpay.pay(orderId);
    await shop.sql(
      `UPDATE online_orders SET created_at = now() - interval '20 minutes' WHERE order_id = $1`,
      [orderId],
    );
    const jobServices = servicesOn(shop.database, {
      RAZORPAY_URL: razorpay.url,
      RAZORPAY_KEY_ID: razorpay.keyId,
      RAZORPAY_KEY_SECRET: razorpay.keySecret,
    });
    expect(await jobServices.memberPayments.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await installments(schemeid)).map((row) => row.mode)).toEqual(['cash', 'online']);
    expect(await jobServices.memberPayments.reconcile()).toEqual({ checked: 0, settled: 0 });
  });

  it('refuses to take payments until Razorpay is set up', async () => {
    const plain = await createTestContext();
    try {
      const answer = await plain.app.inject({
        method: 'POST',
        url: url(MEMBER_API_PATHS.razorpayWebhook),
        payload: '{}',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'ab'.repeat(32) },
      });
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toBe(MEMBER_MESSAGES.onlinePaymentNotSetUp);
    } finally {
      await plain.close();
    }
  });
});
