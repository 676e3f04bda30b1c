import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS, API_PREFIX, MEMBER_API_PATHS } from '@kanak/contract';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fake-razorpay.js';
import { noticeShop, type NoticeShop } from '../../../test/notices.js';

/**
 * What the customers' portal reads beyond the member API's first answers: a scheme's plan and
 * a weight plan's gold on the home page, and the checkout script's address with each order.
 */
let shop: NoticeShop;
let razorpay: FakeRazorpay;

beforeAll(async () => {
  razorpay = await startFakeRazorpay();
  shop = await noticeShop({
    clock: () => new Date('2026-01-05T12:00:00+05:30'),
    env: {
      RAZORPAY_URL: razorpay.url,
      RAZORPAY_KEY_ID: razorpay.keyId,
      RAZORPAY_KEY_SECRET: razorpay.keySecret,
      RAZORPAY_WEBHOOK_SECRET: razorpay.webhookSecret,
      RAZORPAY_CHECKOUT_URL: razorpay.checkoutUrl,
    },
  });
  await shop.savePanel(1);
});
afterAll(async () => {
  await shop.close();
  await razorpay.close();
});

async function signIn(mobile: string) {
  const asked = await shop.app.inject({
    method: 'POST',
    url: API_PREFIX + MEMBER_API_PATHS.memberOtp,
    payload: { mobile },
  });
  expect(asked.statusCode).toBe(200);
  const code = await vi.waitFor(() => {
    const text = shop.fake.messages.find((message) => message.mobile === mobile)?.text ?? '';
    return /(\d{6})/.exec(text)![1]!;
  });
  const verified = await shop.app.inject({
    method: 'POST',
    url: API_PREFIX + MEMBER_API_PATHS.memberVerify,
    payload: { mobile, code },
  });
  return verified.json<{ data: { token: string } }>().data.token;
}

describe('the portal’s home and payment', () => {
  it('shows a weight plan’s name and gold, and hands the checkout script’s address with the order', async () => {
    await shop.call('/scheme-plans', {
      code: 'gold',
      name: 'Gold savings',
      kind: 'weight',
      installments: 3,
      minAmount: 1000,
      bonusPercent: 50,
      graceDays: 7,
    });
    await shop.sql(
      `INSERT INTO gold_rates (rate_date, rate22k_paise, rate24k_paise) VALUES ('2026-01-05', 654321, 654321)`,
    );
    const mobile = '9822200071';
    const custid = await shop.customer(mobile, 'Lata Iyer');
    const { data } = await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
      custid,
      mobileno: mobile,
      custname: 'Lata Iyer',
      startdt: '2026-01-05',
      amount: 3000,
      plan: 'gold',
    });
    await shop.call(API_PATHS.activateScheme, {
      schemeid: data.schemeid,
      date: '2026-01-05',
      mode: 'upi',
      reference: 'UTR1',
    });

    const token = await signIn(mobile);
    const as = (method: 'GET' | 'POST', path: string) =>
      shop.app.inject({
        method,
        url: API_PREFIX + path,
        headers: { authorization: `Bearer ${token}` },
      });
    const me = await as('GET', MEMBER_API_PATHS.memberMe);
    expect(me.statusCode, me.body).toBe(200);
    // ₹3,000 at ₹6,543.21 a gram: 458 mg.
    expect(me.json().data.schemes).toEqual([
      expect.objectContaining({
        schemeid: data.schemeid,
        plan: { code: 'GOLD', name: 'Gold savings', kind: 'weight' },
        grams: 0.458,
      }),
    ]);

    const order = await as(
      'POST',
      MEMBER_API_PATHS.memberPay.replace(':schemeid', String(data.schemeid)),
    );
    expect(order.statusCode, order.body).toBe(200);
    expect(order.json().data).toMatchObject({
      amount: 300_000,
      keyId: razorpay.keyId,
      checkoutUrl: razorpay.checkoutUrl,
    });
  });
});
