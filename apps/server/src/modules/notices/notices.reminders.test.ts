import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, DEFAULT_NOTICE_TEXTS, renderNotice } from '@kanak/contract';
import { noticeShop, testOutbox, type NoticeShop } from '../../../test/notices.js';
import { pointsSummaryReader } from '../points/index.js';
import { schemesRepo } from '../schemes/index.js';
import type { NoticesOutbox } from './notices.outbox.js';
import { queueReminders } from './notices.reminders.js';

/**
 * The daily reminders job on a controllable clock: installments due soon and overdue, schemes
 * matured, the monthly digest of points expiring; run twice, killed midway and run again,
 * nothing is queued twice. Reminders wait for the store's day hours.
 */

const TODAY = '2026-03-10';
let shop: NoticeShop;

/** The store's clock at `time` (Kolkata) on `date`. */
const at = (date: string, time: string) => new Date(`${date}T${time}+05:30`);

const outboxAt = (moment: Date) => testOutbox({ clock: () => moment });

const deps = (outbox: Pick<NoticesOutbox, 'queueMany'> = outboxAt(at(TODAY, '08:00:00'))) => ({
  db: shop.database.db,
  outbox,
  schemes: schemesRepo,
  points: pointsSummaryReader,
});

/**
 * A consenting customer's scheme, started and paid on the given dates (on `plan`, or the
 * standard scheme); answers its id.
 */
async function scheme(
  mobile: string,
  name: string,
  startdt: string,
  paidOn: string[],
  plan?: string,
) {
  const custid = await shop.customer(mobile, name);
  const { data } = await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
    custid,
    mobileno: mobile,
    custname: '',
    startdt,
    amount: 3000,
    ...(plan ? { plan } : {}),
  });
  const [first, ...rest] = paidOn;
  await shop.call(API_PATHS.activateScheme, {
    schemeid: data.schemeid,
    date: first,
    mode: 'cash',
    reference: '',
  });
  for (const date of rest) {
    await shop.call(API_PATHS.addInstallment, {
      schemeid: data.schemeid,
      date,
      mode: 'upi',
      reference: '',
      narration: '',
    });
  }
  return data.schemeid;
}

const ids: Record<string, number> = {};

beforeAll(async () => {
  // The app's day: TODAY, but for a scheme entered a year ago, on the day it started.
  let day = TODAY;
  shop = await noticeShop({ clock: () => at(day, '12:00:00') });
  await shop.savePanel(1);
  // Two installments behind: the one due 12 Feb is overdue (grace ended 19 Feb); the one due
  // 12 Jan is too old to be told of now; the next, due 12 Mar, is due within 3 days.
  ids.behind = await scheme('9822200001', 'Behind Two', '2025-12-12', ['2025-12-12']);
  // Matured on 19 Feb, not yet closed.
  day = '2025-02-20';
  ids.matured = await scheme('9822200002', 'Matured Saver', '2025-02-20', ['2025-02-20']);
  day = TODAY;
  // Paid up to date; the third installment is due tomorrow.
  ids.current = await scheme('9822200003', 'On Time', '2026-01-11', ['2026-01-11', '2026-02-11']);
  // Paid ahead: the third installment, due on 13 Mar, is paid already.
  ids.ahead = await scheme('9822200004', 'Paid Ahead', '2026-01-13', [
    '2026-01-13',
    '2026-02-13',
    '2026-03-02',
  ]);
  // Points earned on 20 Mar 2024 expire on 20 Mar 2026 (24 months); those of 1 May 2024 later.
  const expiring = await shop.customer('9822200005', 'Expiring Points');
  ids.expiring = expiring;
  for (const [INVDATE, POINTS] of [
    ['2024-03-20', 70],
    ['2024-05-01', 30],
  ] as const) {
    await shop.call(API_PATHS.updatePoints, {
      formData: { MOBILENO: '9822200005', POINTS, INVDATE, CASHCR: 'CR' },
    });
  }
  await shop.sql(`DELETE FROM notices`);
});
afterAll(() => shop.close());

const reminders = () =>
  shop.sql<{ event: string; dedupe_key: string; mobile: string; text: string; status: string }>(
    `SELECT event, dedupe_key, mobile, text, status FROM notices ORDER BY dedupe_key`,
  );

describe('the daily reminders', () => {
  it('queue due, overdue, matured and the digest, each once, and a second run queues nothing', async () => {
    const counts = await queueReminders(deps(), TODAY);
    expect(counts).toEqual({
      installmentDue: 2,
      installmentOverdue: 1,
      schemeMatured: 1,
      pointsExpiring: 1,
    });
    const rows = await reminders();
    expect(rows.map((row) => [row.dedupe_key, row.mobile, row.status])).toEqual([
      [`installmentDue:${ids.behind}:3`, '9822200001', 'queued'],
      [`installmentDue:${ids.current}:2`, '9822200003', 'queued'],
      [`installmentOverdue:${ids.behind}:2`, '9822200001', 'queued'],
      [`pointsExpiring:${ids.expiring}:2026-03`, '9822200005', 'queued'],
      [`schemeMatured:${ids.matured}`, '9822200002', 'queued'],
    ]);
    const text = (key: string) => rows.find((row) => row.dedupe_key === key)!.text;
    expect(text(`installmentDue:${ids.current}:2`)).toBe(
      'Dear On Time, your scheme installment of ₹3,000 at Kanak Jewellers is due on 11/03/2026 (2 of 11 paid).',
    );
    expect(text(`installmentOverdue:${ids.behind}:2`)).toBe(
      'Dear Behind Two, your scheme installment of ₹3,000 at Kanak Jewellers was due on 12/02/2026 and is not yet paid. Please visit Main showroom.',
    );
    expect(text(`schemeMatured:${ids.matured}`)).toBe(
      'Dear Matured Saver, your gold savings scheme at Kanak Jewellers matured on 19/02/2026. Visit Main showroom to close it and take your jewellery.',
    );
    expect(text(`pointsExpiring:${ids.expiring}:2026-03`)).toBe(
      renderNotice(DEFAULT_NOTICE_TEXTS.pointsExpiring, {
        name: 'Expiring Points',
        points: 70,
        shop: 'Kanak Jewellers',
        dueDate: '20/03/2026',
        balance: 100,
        value: '100',
      }),
    );

    expect(await queueReminders(deps(), TODAY)).toEqual({
      installmentDue: 0,
      installmentOverdue: 0,
      schemeMatured: 0,
      pointsExpiring: 0,
    });
    expect(await reminders()).toEqual(rows);
  });

  it('the next day adds only what became due; the digest comes again only in a new month', async () => {
    const before = (await reminders()).length;
    // 11 Mar: the paid-ahead scheme's fourth installment (13 Apr) is not yet near.
    expect(await queueReminders(deps(), '2026-03-11')).toEqual({
      installmentDue: 0,
      installmentOverdue: 0,
      schemeMatured: 0,
      pointsExpiring: 0,
    });
    // 1 Apr: the points of 1 May 2024 now expire within 30 days, a new month's digest.
    const april = await queueReminders(deps(), '2026-04-01');
    expect(april.pointsExpiring).toBe(1);
    const keys = (await reminders()).map((row) => row.dedupe_key);
    expect(keys).toContain(`pointsExpiring:${ids.expiring}:2026-04`);
    expect(keys.length).toBe(before + Object.values(april).reduce((sum, n) => sum + n, 0));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('killed midway, a rerun queues the rest and nothing twice', async () => {
    await shop.sql(`DELETE FROM notices`);
    const outbox = outboxAt(at(TODAY, '08:00:00'));
    let batches = 0;
    const dying = {
      queueMany: async (...args: Parameters<NoticesOutbox['queueMany']>) => {
        if (++batches === 3) throw new Error('killed');
        return outbox.queueMany(...args);
      },
    };
    // One scheme per batch: the third batch dies with its transaction.
    await expect(queueReminders(deps(dying), TODAY, 1)).rejects.toThrow('killed');
    const midway = (await reminders()).length;
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(5);
    await queueReminders(deps(), TODAY, 1);
    const keys = (await reminders()).map((row) => row.dedupe_key);
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
  });
});

describe("the store's day hours", () => {
  const notBefore = async (moment: Date) => {
    await shop.sql(`DELETE FROM notices`);
    await shop.database.db.transaction((tx) =>
      outboxAt(moment).queue(tx, {
        event: 'installmentDue',
        customerId: ids.expiring!,
        branchId: null,
        facts: { amount: 3000, paid: 1, total: 11, dueDate: '2026-03-12' },
        dedupeKey: 'hours-test',
      }),
    );
    const [row] = await shop.sql<{ not_before: Date; created_at: Date }>(
      `SELECT not_before, created_at FROM notices`,
    );
    return row!;
  };

  it('hold a reminder queued at night until 9:00 the next morning', async () => {
    const row = await notBefore(at(TODAY, '22:15:00'));
    expect(row.not_before.toISOString()).toBe(at('2026-03-11', '09:00:00').toISOString());
  });

  it('hold one queued before the day starts until 9:00 that day', async () => {
    const row = await notBefore(at(TODAY, '06:30:00'));
    expect(row.not_before.toISOString()).toBe(at(TODAY, '09:00:00').toISOString());
  });

  it('let one queued within the hours go at once', async () => {
    const row = await notBefore(at(TODAY, '20:59:00'));
    expect(row.not_before.getTime()).toBe(row.created_at.getTime());
  });

  it('never hold a receipt: it goes at once whatever the hour', async () => {
    await shop.sql(`DELETE FROM notices`);
    await shop.database.db.transaction((tx) =>
      outboxAt(at(TODAY, '23:30:00')).queue(tx, {
        event: 'installmentReceived',
        customerId: ids.expiring!,
        branchId: null,
        facts: { amount: 3000, receipt: 'MAIN-000009', paid: 2, total: 11 },
      }),
    );
    const [row] = await shop.sql<{ not_before: Date; created_at: Date }>(
      `SELECT not_before, created_at FROM notices`,
    );
    expect(row!.not_before.getTime()).toBe(row!.created_at.getTime());
  });
});

describe("a plan's grace", () => {
  it('tells of an installment as overdue only once its plan’s grace has ended', async () => {
    await shop.call(API_PATHS.saveSchemePlan, {
      code: 'GRACE15',
      name: 'Fifteen days of grace',
      kind: 'value',
      installments: 11,
      minAmount: 1000,
      bonusPercent: 50,
      graceDays: 15,
    });
    // February's installment fell due on 22 February: overdue from 9 March (the standard
    // scheme's 7 days would have made it 1 March).
    const lenient = await scheme(
      '9822200006',
      'Lenient Plan',
      '2026-01-22',
      ['2026-01-22'],
      'GRACE15',
    );
    const told = async (day: string) => {
      await shop.sql(`DELETE FROM notices`);
      await queueReminders(deps(outboxAt(at(day, '08:00:00'))), day);
      return (await reminders()).map((row) => row.dedupe_key);
    };
    expect(await told('2026-03-08')).not.toContain(`installmentOverdue:${lenient}:1`);
    expect(await told('2026-03-09')).toContain(`installmentOverdue:${lenient}:1`);
  });
});
