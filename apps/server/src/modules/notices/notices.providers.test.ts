import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, API_PREFIX, NOTICE_MESSAGES } from '@kanak/contract';
import { createFieldCipher } from '../../lib/crypto.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../test/fake-whatsapp.js';
import { TEST_SECRETS } from '../../../test/helpers.js';
import { noticeShop, PANEL_TOKEN, type NoticeShop } from '../../../test/notices.js';

/**
 * What a provider (or whoever answers at its address) can make the server do: send it on to
 * another host, make it read megabytes, get its own words (the token among them, in any
 * spelling) shown to managers in the Delivery Log; and what a saved instance id can do to the
 * address the server posts to.
 */

const TODAY = '2026-03-10';
let shop: NoticeShop;
/** Another host: a redirect's target, which must receive nothing. */
let elsewhere: FakeWhatsApp;

beforeAll(async () => {
  shop = await noticeShop({ clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
  elsewhere = await startFakeWhatsApp();
});
afterAll(async () => {
  await elsewhere.close();
  await shop.close();
});
beforeEach(async () => {
  await shop.sql(`DELETE FROM notices`);
  shop.fake.reset();
  elsewhere.reset();
});

let mobiles = 0;
/** A consenting customer credited a point by the owner: one notice queued; answers its id. */
async function queued() {
  const mobile = `98460${String(++mobiles).padStart(5, '0')}`;
  await shop.customer(mobile, 'Meena Pillai');
  await shop.call(API_PATHS.updatePoints, {
    formData: { MOBILENO: mobile, POINTS: 1, INVDATE: TODAY, CASHCR: 'CR' },
  });
  const [notice] = (await shop.notices()).filter((row) => row.mobile === mobile);
  return notice!.id;
}
const reasonOf = async (id: number) =>
  (await shop.notices()).find((notice) => notice.id === id)!.reason!;
const testMessage = () => shop.post(`${API_PREFIX}${API_PATHS.testMessage}`, {});

describe('a redirect is not followed', () => {
  for (const panel of [1, 2, 3] as const) {
    it(`panel ${panel}: a 307 to another host sends nothing there; the attempt failed with our reason`, async () => {
      await shop.savePanel(panel);
      const id = await queued();
      // 307 keeps the method and the body: followed, the message and its token would go on.
      shop.fake.next({
        status: 307,
        body: '',
        headers: { location: `${elsewhere.url}/instance-${panel}/messages/chat` },
      });
      expect(await shop.sender().run()).toMatchObject({ sent: 0, retried: 1 });
      expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.providerRedirected);
      expect(elsewhere.requests).toEqual([]);
    });
  }

  it('the test message: a 302 is "not sent", the other host reached by nothing', async () => {
    await shop.savePanel(3);
    shop.fake.next({
      status: 302,
      body: '',
      headers: { location: `${elsewhere.url}/api/send?number=919000000099` },
    });
    const response = await testMessage();
    expect(response.json()).toMatchObject({
      success: false,
      data: { sent: false, status: 302, answer: NOTICE_MESSAGES.providerRedirected },
    });
    expect(elsewhere.requests).toEqual([]);
  });
});

describe('an answer is read up to 64 KB', () => {
  it('a 5 MB answer: the sender stops reading and closes the connection; a short reason', async () => {
    await shop.savePanel(1);
    const id = await queued();
    shop.fake.next({ status: 200, bytes: 5 * 1024 * 1024 });
    expect(await shop.sender({ timeoutMs: 10_000 }).run()).toMatchObject({ sent: 0, retried: 1 });
    expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.providerAnswerTooLong(64));
    await expect.poll(() => shop.fake.messages[0]?.cutShort).toBe(true);
  });

  it('an answer without end: cut at 64 KB all the same, and the next notice goes out', async () => {
    await shop.savePanel(2);
    const id = await queued();
    shop.fake.next({ status: 200, bytes: Number.POSITIVE_INFINITY });
    expect(await shop.sender({ timeoutMs: 10_000 }).run()).toMatchObject({ sent: 0, retried: 1 });
    expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.providerAnswerTooLong(64));
    await expect.poll(() => shop.fake.messages[0]?.cutShort).toBe(true);
    const next = await queued();
    expect(await shop.sender().run()).toMatchObject({ sent: 1 });
    expect((await shop.notices()).find((notice) => notice.id === next)?.status).toBe('sent');
  });

  it('an answer of 60 KB is still read whole', async () => {
    await shop.savePanel(1);
    const id = await queued();
    shop.fake.next({ status: 500, bytes: 60 * 1024 });
    await shop.sender({ timeoutMs: 10_000 }).run();
    expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.providerRefused(500));
    expect(shop.fake.messages[0]?.cutShort).toBe(false);
  });
});

describe('one deadline covers the whole answer', () => {
  it('headers, then nothing: given up at the timeout like no answer at all, queued again', async () => {
    await shop.savePanel(1);
    const id = await queued();
    shop.fake.next('hangAfterHeaders');
    const started = performance.now();
    expect(await shop.sender({ timeoutMs: 300 }).run()).toMatchObject({ sent: 0, retried: 1 });
    expect(performance.now() - started).toBeLessThan(2500);
    expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.providerTimeout(0.3));
  });
});

describe("the provider's words never reach the Delivery Log, the log or the test message", () => {
  const base64 = Buffer.from(PANEL_TOKEN).toString('base64');
  const cut = PANEL_TOKEN.slice(0, -4);
  const echo = JSON.stringify({
    error: `Wrong token ${base64}; did you mean ${cut}…? <a href="http://evil.example">help</a>`,
  });

  for (const panel of [1, 2, 3] as const) {
    it(`panel ${panel}: an answer echoing the token base64 and cut short shows neither`, async () => {
      await shop.savePanel(panel);
      const id = await queued();
      shop.fake.next({ status: 401, body: echo });
      await shop.sender().run();
      expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.providerRefused(401));
      const log = await shop.inject({ method: 'GET', url: `${API_PREFIX}${API_PATHS.notices}` });
      expect(log.statusCode).toBe(200);
      for (const secret of [PANEL_TOKEN, base64, cut, 'evil.example']) {
        expect(log.body).not.toContain(secret);
        expect(shop.logged()).not.toContain(secret);
      }
    });
  }

  it('a 200 that is not "done": our reason, not its words', async () => {
    await shop.savePanel(2);
    const id = await queued();
    shop.fake.next({ status: 200, body: JSON.stringify({ idMessage: '', note: base64 }) });
    await shop.sender().run();
    expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.providerNotSent);
  });

  it('the test message answers our reason too', async () => {
    await shop.savePanel(1);
    shop.fake.next({ status: 401, body: echo });
    const response = await testMessage();
    expect(response.json()).toMatchObject({
      success: false,
      data: { sent: false, status: 401, answer: NOTICE_MESSAGES.providerRefused(401) },
    });
    for (const secret of [PANEL_TOKEN, base64, cut]) expect(response.body).not.toContain(secret);
  });
});

describe('instance ids and tokens stay in their place in the address', () => {
  const setup = (formData: Record<string, unknown>) =>
    shop.post(`${API_PREFIX}${API_PATHS.panelSetup}`, {
      formData: {
        instanceid: 'instance-1',
        token: PANEL_TOKEN,
        panel: 1,
        phone: '9000000099',
        ...formData,
      },
    });

  it('panel-setup refuses an instance id that is not a plain name, and a token of dots or spaces', async () => {
    await shop.savePanel(1);
    const before = await shop.sql(`SELECT instance_id, token_sealed FROM panel_config`);
    for (const instanceid of ['..', '.', 'a/b', '../../admin', 'a?b', 'a#b', 'a b', '%2e%2e']) {
      const response = await setup({ instanceid });
      expect(response.statusCode, instanceid).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        message: 'Instance Id may have only letters, digits, dashes and underscores.',
      });
    }
    for (const token of ['..', '.', 'tok en', 'tok\nen']) {
      const response = await setup({ panel: 2, token });
      expect(response.statusCode, token).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        message: 'Token must be as the provider gave it: letters, digits and symbols, no spaces.',
      });
    }
    expect(await shop.sql(`SELECT instance_id, token_sealed FROM panel_config`)).toEqual(before);
    // Real providers' ids and tokens still save.
    expect((await setup({ instanceid: 'instance123_A-b' })).statusCode).toBe(200);
    expect(
      (await setup({ panel: 2, instanceid: '1101000001', token: 'a1B2+c3/d4==' })).statusCode,
    ).toBe(200);
  });

  it('an instance id saved earlier as ".." posts nowhere outside the configured path', async () => {
    await shop.savePanel(1);
    await shop.sql(`UPDATE panel_config SET instance_id = '..'`);
    const id = await queued();
    const prefixed = `${shop.fake.url}/panel1`;
    await shop.sender({ urls: { 1: prefixed, 2: prefixed, 3: prefixed } }).run();
    expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.panelSettingsInvalid);
    expect(shop.fake.requests).toEqual([]);
  });

  it('a token saved earlier as ".." on panel 2 the same', async () => {
    await shop.savePanel(2);
    await shop.sql(`UPDATE panel_config SET token_sealed = $1`, [
      createFieldCipher(TEST_SECRETS.dataKey).encrypt('..'),
    ]);
    const id = await queued();
    await shop.sender().run();
    expect(await reasonOf(id)).toBe(NOTICE_MESSAGES.panelSettingsInvalid);
    expect(shop.fake.requests).toEqual([]);
  });
});
