import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import {
  API_PATHS,
  API_PREFIX,
  MEMBER_API_PATHS,
  MEMBER_MESSAGES,
  type memberMeResponse,
} from '@kanak/contract';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fake-razorpay.js';
import { movableClock, servicesOn } from '../../../test/helpers.js';
import { noticeShop, type NoticeShop } from '../../../test/notices.js';

/**
 * What the customers' portal reads beyond the member API's first answers: a scheme's plan and
 * a weight plan's gold on the home page, the checkout script's address with each order, the
 * installment Pay takes (and, with none to take, when the next falls due), the month and the
 * payment id of each installment, and a running scheme's figures at maturity.
 */
let shop: NoticeShop;
let razorpay: FakeRazorpay;
const clock = movableClock('2026-01-05');

beforeAll(async () => {
  razorpay = await startFakeRazorpay();
  shop = await noticeShop({
    clock: clock.now,
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
afterEach(() => clock.reset());

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
    // ₹3,000 at ₹6,543.21 a gram: 458 mg. At maturity: three installments and half of one as
    // bonus, paid out in gold at the closing day's rate, so no total in rupees yet.
    expect(me.json().data.schemes).toEqual([
      expect.objectContaining({
        schemeid: data.schemeid,
        plan: { code: 'GOLD', name: 'Gold savings', kind: 'weight' },
        grams: 0.458,
        maturity: { paid: 9000, bonus: 1500 },
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

describe('what Pay takes, and what the scheme pays at maturity', () => {
  const as = (token: string, method: 'GET' | 'POST', path: string, payload?: object) =>
    shop.app.inject({
      method,
      url: API_PREFIX + path,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const withId = (path: string, schemeid: number) => path.replace(':schemeid', String(schemeid));
  const schemeOnHome = async (token: string, schemeid: number) => {
    const me = await as(token, 'GET', MEMBER_API_PATHS.memberMe);
    expect(me.statusCode, me.body).toBe(200);
    return me
      .json<z.infer<typeof memberMeResponse>>()
      .data.schemes.find((scheme) => scheme.schemeid === schemeid);
  };

  it('offers Pay exactly when the pay call takes the month, and says when the next falls due', async () => {
    const mobile = '9822200072';
    const custid = await shop.customer(mobile, 'Meera Rao');
    const { data } = await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
      custid,
      mobileno: mobile,
      custname: 'Meera Rao',
      startdt: '2026-01-05',
      amount: 5000,
    });
    const schemeid = data.schemeid;
    await shop.call(API_PATHS.activateScheme, { schemeid, date: '2026-01-05', mode: 'cash' });
    const token = await signIn(mobile);

    // January paid at the counter: February may be paid in advance, and Pay takes it.
    const february = {
      month: '2026-02',
      installmentNo: 2,
      dueOn: '2026-02-05',
      overdue: false,
      now: true,
      online: true,
    };
    expect(await schemeOnHome(token, schemeid)).toMatchObject({
      nextInstallment: february,
      // The standard scheme: 11 installments of ₹5,000 and the shop's 100% of one as bonus.
      maturity: { paid: 55_000, bonus: 5000, total: 60_000 },
    });
    const passbook = await as(token, 'GET', withId(MEMBER_API_PATHS.memberScheme, schemeid));
    expect(passbook.json().data.scheme.nextInstallment).toEqual(february);

    const order = await as(token, 'POST', withId(MEMBER_API_PATHS.memberPay, schemeid));
    expect(order.statusCode, order.body).toBe(200);
    const orderId = order.json<{ data: { orderId: string } }>().data.orderId;
    expect(razorpay.orders.get(orderId)?.notes).toMatchObject({ period: '2026-02' });
    const paid = razorpay.pay(orderId);
    const verified = await as(token, 'POST', MEMBER_API_PATHS.memberPaymentVerify, paid);
    expect(verified.json().data.receipt).toMatchObject({
      forMonth: '2026-02',
      installmentNo: 2,
      reference: paid.razorpay_payment_id,
    });

    // Each installment names its month; the one paid online, the gateway's payment id.
    const rows = (await as(token, 'GET', withId(MEMBER_API_PATHS.memberScheme, schemeid))).json()
      .data.rows;
    expect(rows).toEqual([
      expect.objectContaining({ no: 1, mode: 'cash', forMonth: '2026-01' }),
      expect.objectContaining({
        no: 2,
        mode: 'online',
        forMonth: '2026-02',
        paymentId: paid.razorpay_payment_id,
      }),
    ]);
    expect(rows[0]).not.toHaveProperty('paymentId');

    // January and February paid: nothing may be paid now, March's falls due on 05/03/2026,
    // and the pay call refuses as the scheme data says.
    expect((await schemeOnHome(token, schemeid))?.nextInstallment).toEqual({
      month: '2026-03',
      installmentNo: 3,
      dueOn: '2026-03-05',
      overdue: false,
      now: false,
      online: false,
    });
    const refused = await as(token, 'POST', withId(MEMBER_API_PATHS.memberPay, schemeid));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MEMBER_MESSAGES.nothingDue);

    // On the 20th of March, March's is past its grace days: overdue, and Pay takes it.
    clock.set('2026-03-20');
    expect((await schemeOnHome(token, schemeid))?.nextInstallment).toMatchObject({
      month: '2026-03',
      dueOn: '2026-03-05',
      overdue: true,
      now: true,
      online: true,
    });

    // Past maturity nothing more can be paid online, and the figures are the two paid's.
    clock.set('2027-01-05');
    expect(await schemeOnHome(token, schemeid)).toMatchObject({
      nextInstallment: null,
      maturity: { paid: 10_000, bonus: 909, total: 10_909 },
    });
    clock.reset();

    // A shop without Razorpay: the month may be paid, at the shop, but Pay does not take it.
    const offline = servicesOn(shop.database, {}, clock.now);
    clock.set('2026-03-20');
    const [scheme] = (await offline.members.me(custid)).schemes;
    expect(scheme?.nextInstallment).toMatchObject({ month: '2026-03', now: true, online: false });
  });

  it('counts a plan’s bonus by the installments paid on time, the ones to come included', async () => {
    await shop.call('/scheme-plans', {
      code: 'five',
      name: 'Five months',
      kind: 'value',
      installments: 5,
      minAmount: 1000,
      bonusPercent: 100,
      graceDays: 7,
    });
    const mobile = '9822200073';
    const custid = await shop.customer(mobile, 'Nila Sen');
    const { data } = await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
      custid,
      mobileno: mobile,
      custname: 'Nila Sen',
      startdt: '2025-11-05',
      amount: 2000,
      plan: 'five',
    });
    const schemeid = data.schemeid;
    await shop.call(API_PATHS.activateScheme, { schemeid, date: '2025-11-05', mode: 'cash' });
    // December's paid on the 20th, past its 7 days' grace: it earns no bonus.
    await clock.enteredOn('2025-12-20', () =>
      shop.call(API_PATHS.addInstallment, { schemeid, date: '2025-12-20', mode: 'cash' }),
    );
    const token = await signIn(mobile);
    expect(await schemeOnHome(token, schemeid)).toMatchObject({
      // January's falls due today.
      nextInstallment: { month: '2026-01', installmentNo: 3, dueOn: '2026-01-05', now: true },
      // Five installments of ₹2,000; the bonus for four of five on time: ₹1,600.
      maturity: { paid: 10_000, bonus: 1600, total: 11_600 },
    });
  });
});
