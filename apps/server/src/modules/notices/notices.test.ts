import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  API_PREFIX,
  DEFAULT_NOTICE_TEXTS,
  LIMITS,
  MESSAGES,
  NOTICE_EVENTS,
  NOTICE_MESSAGES,
  NOTICE_PLACEHOLDERS,
  todayIn,
  type NoticeEntry,
  type NoticeTemplate,
} from '@kanak/contract';
import { addUser, authed, login } from '../../../test/helpers.js';
import { noticeShop, PANEL_TOKEN, type NoticeShop } from '../../../test/notices.js';

/**
 * Notices to customers through the API: each change a customer hears of queues its notice in
 * the change's own transaction; Message Templates; the Delivery Log and its resend; the test
 * message; and the customer's data rights over their notices.
 */

const TODAY = '2026-03-10';
let shop: NoticeShop;
let posKey: string;
/** The app's day: TODAY, but for a scheme entered a year ago, on the day it started. */
let day = TODAY;

beforeAll(async () => {
  shop = await noticeShop({ clock: () => new Date(`${day}T12:00:00+05:30`) });
  posKey = (await shop.call<{ data: { key: string } }>(API_PATHS.apiKeys, { label: 'Counter 1' }))
    .data.key;
});
afterAll(() => shop.close());

const latest = async (mobile: string) =>
  (await shop.notices()).filter((notice) => notice.mobile === mobile).at(-1)!;
const credit = (mobile: string, points: number, CASHCR = 'CR') =>
  shop.post(`${API_PREFIX}${API_PATHS.updatePoints}`, {
    formData: { MOBILENO: mobile, POINTS: points, INVDATE: TODAY, CASHCR },
  });
const pos = (path: string, payload: unknown) =>
  shop.app.inject({
    method: 'POST',
    url: `${API_PREFIX}${path}`,
    payload: payload as Record<string, unknown>,
    headers: { 'x-api-key': posKey },
  });

describe('a change queues its notice', () => {
  it('skips every notice while no messaging panel is saved', async () => {
    await shop.customer('9811100001', 'Farida Khan');
    expect((await credit('9811100001', 10)).statusCode).toBe(200);
    expect(await latest('9811100001')).toMatchObject({
      event: 'pointsAdjusted',
      status: 'skipped',
      reason: NOTICE_MESSAGES.skippedNoPanel,
    });
    await shop.savePanel(1);
  });

  it('points adjusted by staff: the signed points, the balance after and its worth', async () => {
    await shop.customer('9811100002', 'Rekha Menon');
    expect((await credit('9811100002', 1500)).statusCode).toBe(200);
    expect(await latest('9811100002')).toMatchObject({
      event: 'pointsAdjusted',
      status: 'queued',
      reason: null,
      attempts: 0,
      text: 'Dear Rekha Menon, 1,500 points have been added to your points account at Kanak Jewellers. Your balance is now 1,500 points (worth ₹1,500).',
    });
    expect((await credit('9811100002', 200, 'DB')).statusCode).toBe(200);
    expect((await latest('9811100002')).text).toContain(
      '200 points have been deducted from your points account at Kanak Jewellers. Your balance is now 1,300 points',
    );
  });

  it('a refused change queues nothing: the notice rolls back with it', async () => {
    const before = (await shop.notices()).length;
    const refused = await credit('9811100002', 999_999, 'DB');
    expect(refused.statusCode).toBe(409);
    expect(await shop.notices()).toHaveLength(before);
  });

  it('a sale at the counter and a redemption: points, balance, worth, shop and branch', async () => {
    await shop.customer('9811100003', 'Arjun Nair');
    const sale = await pos(API_PATHS.posSales, {
      invoiceNo: 'INV-1',
      invoiceDate: TODAY,
      mobile: '9811100003',
      lines: [{ description: 'Chain', category: 'gold', amount: 25_000 }],
    });
    expect(sale.statusCode, sale.body).toBe(200);
    expect(await latest('9811100003')).toMatchObject({
      event: 'pointsEarned',
      status: 'queued',
      text: 'Dear Arjun Nair, you earned 250 points on your purchase at Kanak Jewellers, Main showroom. Your balance is 250 points (worth ₹250).',
    });
    // The same invoice again: the stored answer, no second notice.
    const count = (await shop.notices()).length;
    expect(
      (
        await pos(API_PATHS.posSales, {
          invoiceNo: 'INV-1',
          invoiceDate: TODAY,
          mobile: '9811100003',
          lines: [{ description: 'Chain', category: 'gold', amount: 25_000 }],
        })
      ).statusCode,
    ).toBe(200);
    expect(await shop.notices()).toHaveLength(count);
    const redeemed = await pos(API_PATHS.posRedemptions, {
      invoiceNo: 'INV-2',
      mobile: '9811100003',
      points: 100,
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect((await latest('9811100003')).text).toBe(
      'Dear Arjun Nair, 100 points were redeemed at Kanak Jewellers, Main showroom. Your balance is 150 points (worth ₹150).',
    );
  });

  it('a sale earning no points tells of nothing', async () => {
    await shop.customer('9811100004', 'Coin Buyer');
    const before = (await shop.notices()).length;
    const sale = await pos(API_PATHS.posSales, {
      invoiceNo: 'INV-3',
      invoiceDate: TODAY,
      mobile: '9811100004',
      lines: [{ description: 'Coin', category: 'coin', amount: 10_000 }],
    });
    expect(sale.statusCode).toBe(200);
    expect(await shop.notices()).toHaveLength(before);
  });

  it('a scheme started, an installment received (receipt, k of n), a scheme closed', async () => {
    const custid = await shop.customer('9811100005', 'Sunita Joshi');
    const { data: scheme } = await shop.call<{ data: { schemeid: number } }>(
      API_PATHS.generateScheme,
      { custid, mobileno: '9811100005', custname: '', startdt: '2026-02-05', amount: 12_500 },
    );
    await shop.call(API_PATHS.activateScheme, {
      schemeid: scheme.schemeid,
      date: '2026-02-05',
      mode: 'upi',
      reference: 'UPI-1',
    });
    expect(await latest('9811100005')).toMatchObject({
      event: 'schemeStarted',
      status: 'queued',
      text: 'Dear Sunita Joshi, your gold savings scheme at Kanak Jewellers has started. Received ₹12,500, receipt MAIN-000001 (installment 1 of 11).',
    });
    await shop.call(API_PATHS.addInstallment, {
      schemeid: scheme.schemeid,
      date: '2026-03-06',
      mode: 'cash',
      reference: '',
      narration: '',
    });
    expect((await latest('9811100005')).text).toBe(
      'Dear Sunita Joshi, we received ₹12,500 for your scheme at Kanak Jewellers, receipt MAIN-000002 (installment 2 of 11). Thank you.',
    );

    // An older scheme past its maturity date closes.
    const custid2 = await shop.customer('9811100006', 'Old Saver');
    day = '2025-01-05';
    const { data: old } = await shop.call<{ data: { schemeid: number } }>(
      API_PATHS.generateScheme,
      {
        custid: custid2,
        mobileno: '9811100006',
        custname: '',
        startdt: '2025-01-05',
        amount: 1000,
      },
    );
    await shop.call(API_PATHS.activateScheme, {
      schemeid: old.schemeid,
      date: '2025-01-05',
      mode: 'cash',
      reference: '',
    });
    day = TODAY;
    await shop.call(API_PATHS.closeScheme, { schemeid: old.schemeid });
    expect(await latest('9811100006')).toMatchObject({
      event: 'schemeClosed',
      status: 'queued',
      text: 'Dear Old Saver, your gold savings scheme at Kanak Jewellers is closed. Thank you for saving with us.',
    });
  });

  it('without transactional consent: written skipped, with the text it would have had', async () => {
    await shop.customer('9811100007', 'No Consent', false);
    await credit('9811100007', 20);
    expect(await latest('9811100007')).toMatchObject({
      status: 'skipped',
      reason: NOTICE_MESSAGES.skippedNoConsent,
      text: expect.stringContaining('Dear No Consent'),
    });
  });

  it('its kind switched off: written skipped; switched on again, queued', async () => {
    await shop.customer('9811100008', 'Switch Test');
    await shop.call(API_PATHS.noticeTemplates, {
      event: 'pointsAdjusted',
      enabled: false,
      text: DEFAULT_NOTICE_TEXTS.pointsAdjusted,
    });
    await credit('9811100008', 20);
    expect(await latest('9811100008')).toMatchObject({
      status: 'skipped',
      reason: NOTICE_MESSAGES.skippedEventOff,
    });
    await shop.call(API_PATHS.noticeTemplates, {
      event: 'pointsAdjusted',
      enabled: true,
      text: 'नमस्ते {name}: {points} अंक, शेष {balance} ✨',
    });
    await credit('9811100008', 5);
    expect(await latest('9811100008')).toMatchObject({
      status: 'queued',
      text: 'नमस्ते Switch Test: +5 अंक, शेष 25 ✨',
    });
    await shop.call(API_PATHS.noticeTemplates, {
      event: 'pointsAdjusted',
      enabled: true,
      text: DEFAULT_NOTICE_TEXTS.pointsAdjusted,
    });
  });
});

describe('Message Templates', () => {
  it('lists every event with its default text, switched on, until the owner changes it', async () => {
    await shop.sql(`DELETE FROM notice_templates`);
    const { data } = await shop.call<{ data: NoticeTemplate[] }>(API_PATHS.noticeTemplates);
    expect(data).toEqual(
      NOTICE_EVENTS.map((event) => ({
        event,
        enabled: true,
        text: DEFAULT_NOTICE_TEXTS[event],
        isDefault: true,
      })),
    );
  });

  it('saves one event, audited with what changed; the default text again reads as default', async () => {
    const saved = await shop.call<{ message: string; data: NoticeTemplate }>(
      API_PATHS.noticeTemplates,
      { event: 'schemeMatured', enabled: false, text: '  Matured on {dueDate}, {name}.  ' },
    );
    expect(saved).toEqual({
      success: true,
      message: NOTICE_MESSAGES.templateSaved('Scheme matured'),
      data: {
        event: 'schemeMatured',
        enabled: false,
        text: 'Matured on {dueDate}, {name}.',
        isDefault: false,
      },
    });
    const [audit] = await shop.sql<{ entity_id: string; action: string; detail: unknown }>(
      `SELECT entity_id, action, detail FROM audit_log WHERE entity = 'notice_template' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      entity_id: 'schemeMatured',
      action: 'noticeTemplate.save',
      detail: {
        before: { enabled: true, text: DEFAULT_NOTICE_TEXTS.schemeMatured },
        after: { enabled: false, text: 'Matured on {dueDate}, {name}.' },
      },
    });
    const restored = await shop.call<{ data: NoticeTemplate }>(API_PATHS.noticeTemplates, {
      event: 'schemeMatured',
      enabled: true,
      text: DEFAULT_NOTICE_TEXTS.schemeMatured,
    });
    expect(restored.data.isDefault).toBe(true);
  });

  it('refuses an unknown placeholder, an empty or over-long text and an unknown event, saving nothing', async () => {
    const before = await shop.sql(`SELECT * FROM notice_templates ORDER BY event`);
    const cases: [Record<string, unknown>, string][] = [
      [
        { event: 'schemeClosed', enabled: true, text: 'Dear {nmae}' },
        `Text may use only these placeholders: ${NOTICE_PLACEHOLDERS.map((k) => `{${k}}`).join(' ')}.`,
      ],
      [{ event: 'schemeClosed', enabled: true, text: '   ' }, 'Text is required.'],
      [
        { event: 'schemeClosed', enabled: true, text: 'x'.repeat(LIMITS.noticeTextMaxLength + 1) },
        `Text must be at most ${LIMITS.noticeTextMaxLength} characters.`,
      ],
      [
        { event: 'birthday', enabled: true, text: 'Happy birthday' },
        `Event must be one of ${NOTICE_EVENTS.join(', ')}.`,
      ],
      [{ event: 'schemeClosed', enabled: 'yes', text: 'Closed' }, 'Choose on or off.'],
    ];
    for (const [body, message] of cases) {
      const response = await shop.post(`${API_PREFIX}${API_PATHS.noticeTemplates}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    expect(await shop.sql(`SELECT * FROM notice_templates ORDER BY event`)).toEqual(before);
  });
});

describe('the Delivery Log', () => {
  const log = (query = '') =>
    shop.call<{ data: NoticeEntry[]; total: number }>(`${API_PATHS.notices}${query}`);

  it('lists the notices newest first, with the branch, filtered by status, event and mobile', async () => {
    const all = await log();
    expect(all.total).toBe((await shop.notices()).length);
    const ids = all.data.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.data[0]).toEqual({
      id: expect.any(Number),
      event: expect.any(String),
      mobile: expect.stringMatching(/^\d{10}$/),
      text: expect.any(String),
      status: expect.any(String),
      attempts: 0,
      reason: null,
      branch: 'MAIN',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      sentAt: null,
    });
    const skipped = await log('?status=skipped');
    expect(skipped.data.length).toBeGreaterThan(0);
    expect(skipped.data.every((entry) => entry.status === 'skipped')).toBe(true);
    const earned = await log('?event=pointsEarned&status=');
    expect(earned.data.map((entry) => entry.mobile)).toEqual(['9811100003']);
    const one = await log('?mobile=9811100005');
    expect(one.data.map((entry) => entry.event)).toEqual(['installmentReceived', 'schemeStarted']);
    // Dates are the store's days the notices were written on.
    const today = todayIn('Asia/Kolkata');
    expect((await log(`?from=${today}&to=${today}`)).total).toBe(all.total);
    expect((await log('?from=2020-01-01&to=2020-01-31')).total).toBe(0);
  });

  it('pages by 50 and refuses a bad filter with 400', async () => {
    const [customer] = await shop.sql<{ id: number }>(
      `SELECT id FROM customers WHERE mobileno = '9811100002'`,
    );
    await shop.sql(
      `INSERT INTO notices (event, customer_id, mobile, text, status, reason)
       SELECT 'pointsAdjusted', $1, '9811100002', 'Filler ' || n, 'skipped', 'filler'
         FROM generate_series(1, 60) n`,
      [customer!.id],
    );
    const first = await log('?mobile=9811100002');
    const second = await log('?mobile=9811100002&page=2');
    // Her credit and her deduction, and the sixty.
    expect(first.total).toBe(62);
    expect(first.data).toHaveLength(LIMITS.noticesPageSize);
    expect(second.data).toHaveLength(62 - LIMITS.noticesPageSize);
    expect(second.data.at(-1)!.text).toContain('Dear Rekha Menon');
    for (const query of ['?status=lost', '?mobile=98111', '?page=0', '?from=2026-02-30']) {
      const response = await shop.inject({ method: 'GET', url: `/api/notices${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().success).toBe(false);
    }
  });

  it('resends a failed notice only: 404 unknown, 409 otherwise; audited, and a repeat replays', async () => {
    const missing = await shop.post(`${API_PREFIX}${API_PATHS.noticeResend}`, { id: 987_654 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(NOTICE_MESSAGES.noSuchNotice(987_654));
    const queued = await latest('9811100005');
    const notFailed = await shop.post(`${API_PREFIX}${API_PATHS.noticeResend}`, {
      id: queued.id,
    });
    expect(notFailed.statusCode).toBe(409);
    expect(notFailed.json().message).toBe(NOTICE_MESSAGES.onlyFailedResent);

    await shop.sql(
      `UPDATE notices SET status = 'failed', attempts = 5, reason = 'The provider answered 500' WHERE id = $1`,
      [queued.id],
    );
    // A manager answers the customer who heard nothing.
    await addUser(shop, 'manager1', 'Manager@1928x', 'manager');
    const manager = await login(shop, 'manager1', 'Manager@1928x');
    const key = randomUUID();
    const resend = () =>
      shop.app.inject(
        authed(manager, {
          method: 'POST',
          url: `${API_PREFIX}${API_PATHS.noticeResend}`,
          payload: { id: queued.id },
          idempotencyKey: key,
        }),
      );
    const first = await resend();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: NOTICE_MESSAGES.noticeResent(queued.id),
      data: { id: queued.id, status: 'queued', attempts: 0, reason: null },
    });
    const again = await resend();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const audits = await shop.sql<{ detail: unknown; mobile: string }>(
      `SELECT detail, mobile FROM audit_log WHERE entity = 'notice' AND entity_id = $1`,
      [String(queued.id)],
    );
    expect(audits).toEqual([
      {
        mobile: '9811100005',
        detail: {
          before: { status: 'failed', attempts: 5, reason: 'The provider answered 500' },
          after: { status: 'queued', attempts: 0 },
        },
      },
    ]);
  });
});

describe('the test message', () => {
  const testMessage = (idempotencyKey?: string) =>
    shop.post(`${API_PREFIX}${API_PATHS.testMessage}`, {}, idempotencyKey);

  it('is refused (409) while no panel is saved', async () => {
    await shop.sql(`DELETE FROM panel_config`);
    const response = await testMessage();
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      message: NOTICE_MESSAGES.panelNotConfigured,
    });
    expect(shop.fake.messages).toEqual([]);
  });

  for (const panel of [1, 2, 3] as const) {
    it(`panel ${panel}: goes at once to the saved Phone, and says the provider took it`, async () => {
      await shop.savePanel(panel);
      shop.fake.reset();
      const response = await testMessage();
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ data: { answer: string } }>();
      expect(body).toMatchObject({
        success: true,
        message: NOTICE_MESSAGES.testMessageSent,
        data: { sent: true, status: 200 },
      });
      expect(body.data.answer).toBe(NOTICE_MESSAGES.providerAccepted);
      expect(shop.fake.messages).toEqual([
        expect.objectContaining({
          panel,
          mobile: '9000000099',
          token: PANEL_TOKEN,
          text: NOTICE_MESSAGES.testMessageText('Kanak Jewellers'),
        }),
      ]);
    });
  }

  it("a refusal: success false with the provider's status and our reason, never its words", async () => {
    shop.fake.reset();
    shop.fake.next({ status: 401 });
    const response = await testMessage();
    expect(response.statusCode).toBe(200);
    const answer = NOTICE_MESSAGES.providerRefused(401);
    expect(response.json()).toEqual({
      success: false,
      message: NOTICE_MESSAGES.testMessageFailed(answer),
      data: { sent: false, status: 401, answer },
    });
    expect(response.body).not.toContain(PANEL_TOKEN);
  });

  it('a repeat with the same Idempotency-Key sends nothing more', async () => {
    shop.fake.reset();
    const key = randomUUID();
    const first = await testMessage(key);
    const again = await testMessage(key);
    expect(again.json()).toEqual(first.json());
    expect(shop.fake.messages).toHaveLength(1);
  });

  it('is the owner’s: a manager is refused', async () => {
    const manager = await login(shop, 'manager1', 'Manager@1928x');
    const response = await shop.app.inject(
      authed(manager, {
        method: 'POST',
        url: `${API_PREFIX}${API_PATHS.testMessage}`,
        payload: {},
      }),
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(MESSAGES.notAllowed);
  });
});

describe("the customer's data rights", () => {
  it('the data export lists the notices sent; an erasure takes mobile and text from every notice and skips those queued', async () => {
    await shop.sql(`DELETE FROM notices`);
    shop.fake.reset();
    const custid = await shop.customer('9811100009', 'Priya Das');
    await credit('9811100009', 30);
    await shop.sender().run();
    await credit('9811100009', 40);
    const { data } = await shop.call<{ data: { noticesSent: unknown[] } }>(
      `${API_PATHS.customerDataExport}?custid=${custid}`,
    );
    expect(data.noticesSent).toEqual([
      {
        event: 'pointsAdjusted',
        text: 'Dear Priya Das, 30 points have been added to your points account at Kanak Jewellers. Your balance is now 30 points (worth ₹30).',
        sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    await shop.call(API_PATHS.eraseCustomer, { custid });
    const rows = await shop.notices();
    expect(
      rows.map(({ status, mobile, text, reason }) => ({ status, mobile, text, reason })),
    ).toEqual([
      { status: 'sent', mobile: null, text: '', reason: null },
      { status: 'skipped', mobile: null, text: '', reason: NOTICE_MESSAGES.skippedNoMobile },
    ]);
    expect(JSON.stringify(rows)).not.toContain('Priya');
    expect(await shop.sender().run()).toMatchObject({ sent: 0 });
    expect(shop.fake.messages).toHaveLength(1);
  });
});
