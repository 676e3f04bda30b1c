import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '@kanak/contract';
import { noticeShop, type NoticeShop } from '../../../test/notices.js';

let shop: NoticeShop;
const TODAY = '2026-03-10';

beforeAll(async () => {
  shop = await noticeShop({ clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
});
afterAll(() => shop.close());

describe('numbers in a WhatsApp notice', () => {
  it('group points the Indian way, as the rupees beside them are', async () => {
    const mobile = '9845012345';
    await shop.customer(mobile, 'Meena Pillai');
    await shop.call(API_PATHS.updatePoints, {
      formData: { MOBILENO: mobile, POINTS: 112500, INVDATE: TODAY, CASHCR: 'CR' },
    });
    const [notice] = (await shop.notices()).filter((row) => row.mobile === mobile);
    expect(notice?.text).toBe(
      'Dear Meena Pillai, 1,12,500 points have been added to your points account at Kanak Jewellers. Your balance is now 1,12,500 points (worth ₹1,12,500).',
    );
  });
});
