import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, LIMITS, NOTICE_MESSAGES } from '@kanak/contract';
import type { FakeReply } from '../../../test/fake-whatsapp.js';
import { noticeShop, PANEL_TOKEN, type NoticeShop } from '../../../test/notices.js';
import { freePort } from '../../../test/processes.js';

/**
 * The sender against a local fake provider speaking the three panels' protocols: what goes
 * out, and what becomes of a notice after each kind of answer.
 */

let shop: NoticeShop;
const TODAY = '2026-03-10';

beforeAll(async () => {
  shop = await noticeShop({ clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
});
afterAll(() => shop.close());
beforeEach(async () => {
  await shop.sql(`DELETE FROM notices`);
  shop.fake.reset();
});

let mobiles = 0;
/** A consenting customer credited `points` by the owner: one pointsAdjusted notice queued. */
async function queued(points = 50, name = 'Meena Pillai') {
  const mobile = `98450${String(++mobiles).padStart(5, '0')}`;
  await shop.customer(mobile, name);
  await shop.call(API_PATHS.updatePoints, {
    formData: { MOBILENO: mobile, POINTS: points, INVDATE: TODAY, CASHCR: 'CR' },
  });
  const [notice] = (await shop.notices()).filter((row) => row.mobile === mobile);
  expect(notice).toMatchObject({ status: 'queued', event: 'pointsAdjusted', attempts: 0 });
  return { mobile, id: notice!.id };
}

const row = async (id: number) => (await shop.notices()).find((notice) => notice.id === id)!;
/** Seconds from the database's now to the notice's not_before. */
const waitOf = async (id: number) =>
  (
    await shop.sql<{ s: number }>(
      `SELECT extract(epoch FROM not_before - now())::float AS s FROM notices WHERE id = $1`,
      [id],
    )
  )[0]!.s;

describe('sending through each panel', () => {
  for (const panel of [1, 2, 3] as const) {
    it(`panel ${panel}: speaks its protocol, and marks the notice sent with the provider's id`, async () => {
      await shop.savePanel(panel);
      const { mobile, id } = await queued(40, 'Kavya Rao');
      const result = await shop.sender().run();
      expect(result).toMatchObject({ sent: 1, retried: 0, failed: 0, skipped: 0, more: false });
      expect(shop.fake.messages).toHaveLength(1);
      expect(shop.fake.messages[0]).toMatchObject({
        panel,
        instanceId: `instance-${panel}`,
        token: PANEL_TOKEN,
        mobile,
        answered: 200,
      });
      expect(shop.fake.messages[0]!.text).toBe(
        'Dear Kavya Rao, 40 points have been added to your points account at Kanak Jewellers. Your balance is now 40 points (worth ₹40).',
      );
      const sent = await row(id);
      expect(sent).toMatchObject({ status: 'sent', attempts: 1, reason: null });
      expect(sent.provider_message_id).toMatch(/^fake-\d+$/);
      expect(sent.sent_at).not.toBeNull();
      // Nothing left to send: a second run sends nothing more.
      expect((await shop.sender().run()).sent).toBe(0);
      expect(shop.fake.messages).toHaveLength(1);
    });
  }
});

describe('every panel: each kind of failure is a failed attempt, queued again', () => {
  const failures: [string, FakeReply, (reason: string) => void, number][] = [
    [
      '401',
      { status: 401 },
      (r) =>
        expect(r).toBe(
          'The WhatsApp panel refused the Instance Id or Token: check them on Message Configuration.',
        ),
      30,
    ],
    [
      '429 with Retry-After',
      { status: 429, retryAfter: '45' },
      (r) => expect(r).toBe(NOTICE_MESSAGES.providerRefused(429)),
      45,
    ],
    ['500', { status: 500 }, (r) => expect(r).toBe(NOTICE_MESSAGES.providerRefused(500)), 30],
    ['a hang', 'hang', (r) => expect(r).toBe(NOTICE_MESSAGES.providerTimeout(0.3)), 30],
    [
      "a 200 that is not the panel's done",
      { status: 200, body: '{"sent":"false","status":"queued?"}' },
      (r) => expect(r).toBe(NOTICE_MESSAGES.providerNotSent),
      30,
    ],
  ];
  for (const panel of [1, 2, 3] as const) {
    it(`panel ${panel}: 401, 429 with Retry-After, 500, a hang past the timeout, a 200 without "done"`, async () => {
      await shop.savePanel(panel);
      for (const [label, reply, checkReason, wait] of failures) {
        await shop.sql(`DELETE FROM notices`);
        const { id } = await queued();
        shop.fake.next(reply);
        expect(await shop.sender({ timeoutMs: 300, rate: 20 }).run(), label).toMatchObject({
          sent: 0,
          retried: 1,
        });
        const notice = await row(id);
        expect(notice, label).toMatchObject({ status: 'queued', attempts: 1 });
        checkReason(notice.reason!);
        expect(notice.reason, label).not.toContain(PANEL_TOKEN);
        // In the shop's words: no status code or HTTP talk for staff to decode.
        expect(notice.reason, label).not.toMatch(/\b[1-5]\d\d\b|HTTP|answered \d/);
        expect(await waitOf(id), label).toBeGreaterThan(wait - 5);
        expect(await waitOf(id), label).toBeLessThanOrEqual(wait);
      }
      expect(shop.fake.messages.map((message) => message.panel)).toEqual(failures.map(() => panel));
    });
  }
});

describe('a refused or unanswered attempt', () => {
  beforeAll(() => shop.savePanel(3));

  it('401: queued again after the first delay, with its status as the reason and no token in it', async () => {
    const { id } = await queued();
    shop.fake.next({ status: 401 });
    expect(await shop.sender().run()).toMatchObject({ sent: 0, retried: 1 });
    const notice = await row(id);
    expect(notice).toMatchObject({ status: 'queued', attempts: 1 });
    expect(notice.reason).toBe(NOTICE_MESSAGES.providerRefused(401));
    expect(await waitOf(id)).toBeGreaterThan(LIMITS.noticeRetryFirstDelaySeconds - 5);
    expect(await waitOf(id)).toBeLessThanOrEqual(LIMITS.noticeRetryFirstDelaySeconds);
  });

  it("429: waits as long as the provider's Retry-After says, and holds the sender meanwhile", async () => {
    const first = await queued();
    const second = await queued();
    shop.fake.next({ status: 429, retryAfter: '120' });
    // One at a time (a rate one lane keeps), so no second send is under way when the 429 comes.
    const result = await shop.sender({ rate: 20 }).run();
    expect(result).toMatchObject({ sent: 0, retried: 1, more: true });
    expect(result.resumeAfterSeconds).toBeGreaterThan(100);
    // The second was not tried: the provider asked for a pause.
    expect(shop.fake.messages).toHaveLength(1);
    expect(await waitOf(first.id)).toBeGreaterThan(110);
    expect((await row(first.id)).reason).toBe(NOTICE_MESSAGES.providerRefused(429));
    expect(await row(second.id)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('500 and a hang past the timeout: each an attempt, its reason kept', async () => {
    const { id } = await queued();
    shop.fake.next({ status: 500 });
    await shop.sender().run();
    expect((await row(id)).reason).toBe(NOTICE_MESSAGES.providerRefused(500));
    await shop.sql(`UPDATE notices SET not_before = now() WHERE id = $1`, [id]);
    shop.fake.next('hang');
    const started = Date.now();
    await shop.sender({ timeoutMs: 300 }).run();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await row(id)).toMatchObject({
      status: 'queued',
      attempts: 2,
      reason: NOTICE_MESSAGES.providerTimeout(0.3),
    });
    // The second wait is twice the first.
    expect(await waitOf(id)).toBeGreaterThan(2 * LIMITS.noticeRetryFirstDelaySeconds - 5);
  });

  it(`retries with doubling waits, then is failed after ${LIMITS.noticeMaxAttempts} attempts with the last reason; a resend starts again`, async () => {
    const { id } = await queued();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= LIMITS.noticeMaxAttempts; attempt++) {
      shop.fake.next({ status: attempt === LIMITS.noticeMaxAttempts ? 401 : 500 });
      await shop.sender().run();
      if (attempt < LIMITS.noticeMaxAttempts) {
        waits.push(Math.round(await waitOf(id)));
        // Time passes: the retry is due.
        await shop.sql(`UPDATE notices SET not_before = now() WHERE id = $1`, [id]);
      }
    }
    const first = LIMITS.noticeRetryFirstDelaySeconds;
    expect(waits).toEqual([first, 2 * first, 4 * first, 8 * first]);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: LIMITS.noticeMaxAttempts });
    expect(failed.reason).toBe(NOTICE_MESSAGES.providerRefused(401));
    expect(failed.reason).not.toContain(PANEL_TOKEN);
    // A failed notice stays failed until staff resend it.
    expect((await shop.sender().run()).sent).toBe(0);
    expect(shop.fake.messages).toHaveLength(LIMITS.noticeMaxAttempts);
    await shop.call(API_PATHS.noticeResend, { id });
    expect(await shop.sender().run()).toMatchObject({ sent: 1 });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, reason: null });
  });

  it('an unreachable provider and panel 3 without an address are failed attempts too', async () => {
    const { id } = await queued();
    await shop.sender({ urls: { 1: undefined, 2: undefined, 3: undefined } }).run();
    expect((await row(id)).reason).toBe(NOTICE_MESSAGES.panelHasNoUrl(3));
    await shop.sql(`UPDATE notices SET not_before = now() WHERE id = $1`, [id]);
    const closed = `http://127.0.0.1:${await freePort()}`;
    await shop.sender({ urls: { 1: undefined, 2: undefined, 3: closed } }).run();
    expect((await row(id)).reason).toBe(NOTICE_MESSAGES.providerUnreachable('ECONNREFUSED'));
  });

  it('never writes the token to the log or a reason, whatever the provider echoes', async () => {
    for (const panel of [1, 2, 3] as const) {
      await shop.savePanel(panel);
      const { id } = await queued();
      shop.fake.next({ status: 401 });
      await shop.sender().run();
      expect((await row(id)).reason).toBe(NOTICE_MESSAGES.providerRefused(401));
    }
    expect(shop.fake.messages.every((message) => message.token === PANEL_TOKEN)).toBe(true);
    expect(shop.logged()).toContain(NOTICE_MESSAGES.providerRefused(401));
    expect(shop.logged()).not.toContain(PANEL_TOKEN);
    expect(JSON.stringify(await shop.notices())).not.toContain(PANEL_TOKEN);
    await shop.savePanel(3);
  });
});

describe('what stops a queued notice at the moment of sending', () => {
  beforeAll(() => shop.savePanel(1));

  it('consent withdrawn after it was queued: skipped, nothing sent', async () => {
    const { mobile, id } = await queued();
    const [customer] = await shop.sql<{ id: number }>(
      `SELECT id FROM customers WHERE mobileno = $1`,
      [mobile],
    );
    await shop.consent(customer!.id, false);
    expect(await shop.sender().run()).toMatchObject({ sent: 0, skipped: 1 });
    expect(await row(id)).toMatchObject({
      status: 'skipped',
      reason: NOTICE_MESSAGES.skippedNoConsent,
    });
    expect(shop.fake.messages).toEqual([]);
  });

  it('its kind switched off after it was queued: skipped, nothing sent', async () => {
    const { id } = await queued();
    await shop.call(API_PATHS.noticeTemplates, {
      event: 'pointsAdjusted',
      enabled: false,
      text: 'Points changed: {points}.',
    });
    expect(await shop.sender().run()).toMatchObject({ sent: 0, skipped: 1 });
    expect(await row(id)).toMatchObject({
      status: 'skipped',
      reason: NOTICE_MESSAGES.skippedEventOff,
    });
    expect(shop.fake.messages).toEqual([]);
    await shop.call(API_PATHS.noticeTemplates, {
      event: 'pointsAdjusted',
      enabled: true,
      text: 'Dear {name}, your points at {shop} were adjusted by {points}. Your balance is {balance} points (worth ₹{value}).',
    });
  });
});

describe("while WhatsApp's official panel is saved", () => {
  it('claims nothing: the notice waits with its attempts untouched, and goes once a gateway is saved', async () => {
    await shop.call(API_PATHS.panelSetup, {
      formData: {
        panel: 4,
        phone: '9000000099',
        instanceid: '106540352242922',
        token: `EAAG${'x7Kq'.repeat(60)}`,
        businessAccountId: '102290129340398',
        appSecret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      },
    });
    const { id } = await queued();
    expect(await shop.sender().run()).toMatchObject({
      sent: 0,
      failed: 0,
      retried: 0,
      more: false,
    });
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(shop.fake.messages).toEqual([]);
    await shop.savePanel(1);
    expect(await shop.sender().run()).toMatchObject({ sent: 1 });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});

describe('two senders and the rate', () => {
  beforeAll(() => shop.savePanel(2));

  it('two senders at once never send a notice twice, and lose none', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push((await queued(i + 1)).id);
    // The first message is held at the gateway until a second is in flight. A sender sends one
    // notice at a time, so that second can only be the other sender's: both take part however
    // a busy machine schedules them, and neither waits for the other's rows.
    let secondInFlight!: () => void;
    const held = new Promise<void>((resolve) => (secondInFlight = resolve));
    let arrived = 0;
    shop.fake.onMessage(async () => {
      arrived += 1;
      if (arrived === 1) await held;
      else secondInFlight();
    });
    const [a, b] = await Promise.all([shop.sender().run(), shop.sender().run()]).finally(() =>
      shop.fake.onMessage(undefined),
    );
    expect(a.sent + b.sent).toBe(40);
    // Both took part: the rows were shared out, not sent by one while the other waited.
    expect(a.sent).toBeGreaterThan(0);
    expect(b.sent).toBeGreaterThan(0);
    const delivered = shop.fake.delivered().map((message) => message.mobile);
    expect(delivered).toHaveLength(40);
    expect(new Set(delivered).size).toBe(40);
    expect((await shop.notices()).every((notice) => notice.status === 'sent')).toBe(true);
  });

  it('sends no more than MESSAGING_RATE a second', async () => {
    for (let i = 0; i < 6; i++) await queued();
    const result = await shop.sender({ rate: 5 }).run();
    expect(result.sent).toBe(6);
    const times = shop.fake.messages.map((message) => message.at);
    // Six messages at five a second: the last at least a second after the first.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(950);
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(150);
  });

  it('takes a notice whose claim lapsed (its sender died) again, and not one still claimed', async () => {
    const lapsed = await queued();
    const held = await queued();
    await shop.sql(
      `UPDATE notices SET attempts = 1, claimed_until = now() - interval '1 second' WHERE id = $1`,
      [lapsed.id],
    );
    await shop.sql(
      `UPDATE notices SET attempts = 1, claimed_until = now() + interval '1 minute' WHERE id = $1`,
      [held.id],
    );
    expect(await shop.sender().run()).toMatchObject({ sent: 1 });
    expect(await row(lapsed.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await row(held.id)).toMatchObject({ status: 'queued', attempts: 1 });
    // The first sender's mark, after another took its lapsed claim over, changes nothing.
    expect(shop.fake.delivered().map((message) => message.mobile)).toEqual([lapsed.mobile]);
  });
});
