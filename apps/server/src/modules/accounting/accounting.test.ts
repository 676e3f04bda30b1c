import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  ACCOUNTING_MESSAGES,
  DEFAULT_ACCOUNTING_SETTINGS,
  MESSAGES,
  RAZORPAY_SETTLEMENTS_HEADER,
  type Role,
} from '@kanak/contract';
import {
  appOnDatabase,
  authed,
  createTestContext,
  movableClock,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { startFakeTally, type FakeTally } from '../../../test/fake-tally.js';
import { startRecorder, type Misbehaviour } from '../../../test/misbehaving-http.js';
import { branchesRepo } from '../branches/index.js';
import { pointsMovementByMonth } from '../points/index.js';
import { schemesRepo } from '../schemes/index.js';
import type { StaffIdentity } from '../../plugins/types.js';
import { createAccountingService } from './accounting.service.js';
import { ENVELOPE_END, envelopeStart, voucherXml } from './tally-xml.js';

/**
 * A small known month in two branches, MAIN and PUNE, built through the API with the app's
 * clock pinned: installments in every mode, a scheme closed with its bonus, points credited
 * and deducted in two months. The export is checked as Tally reads it (well formed, every
 * voucher balanced, the cash book's totals), against the reviewed example file, and pushed to
 * a fake Tally twice: the second push alters what the first created.
 */

const TODAY = '2026-11-20';
const clock = movableClock(TODAY);
const { enteredOn } = clock;
const FIXTURE = new URL('../../../test/fixtures/tally-export-example.xml', import.meta.url);

let ctx: TestContext;
let tally: FakeTally;
const tokens: Partial<Record<'owner' | 'manager' | 'cashier' | 'pune', string>> = {};

const as = (who: keyof typeof tokens, url: string, payload?: unknown, method = 'POST') =>
  ctx.app.inject(
    authed(tokens[who]!, {
      method: method as 'GET' | 'POST',
      url: `/api${url}`,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    }),
  );
async function ok(response: Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  isArray: (name) => name === 'TALLYMESSAGE' || name === 'ALLLEDGERENTRIES.LIST',
});
interface Line {
  LEDGERNAME: string;
  ISDEEMEDPOSITIVE: 'Yes' | 'No';
  AMOUNT: string;
}
interface Voucher {
  REMOTEID: string;
  VCHTYPE: string;
  ACTION: string;
  DATE: string;
  VOUCHERNUMBER: string;
  NARRATION: string;
  'ALLLEDGERENTRIES.LIST': Line[];
}
/** The file as Tally reads it: refused unless well formed; its vouchers. */
function vouchersOf(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const tree = parser.parse(xml);
  const envelope = tree.ENVELOPE;
  expect(envelope.HEADER.TALLYREQUEST).toBe('Import Data');
  expect(envelope.BODY.IMPORTDATA.REQUESTDESC.REPORTNAME).toBe('Vouchers');
  const data = envelope.BODY.IMPORTDATA.REQUESTDATA;
  const messages: { VOUCHER: Voucher }[] =
    typeof data === 'object' ? (data.TALLYMESSAGE ?? []) : [];
  return {
    company: envelope.BODY.IMPORTDATA.REQUESTDESC.STATICVARIABLES?.SVCURRENTCOMPANY,
    vouchers: messages.map((message) => message.VOUCHER),
  };
}
const paise = (amount: string) => {
  expect(amount).toMatch(/^-?\d+\.\d{2}$/);
  return Math.round(Number(amount) * 100);
};
/** Every voucher's debits (Yes, negative) equal its credits (No, positive), to the paisa. */
function expectBalanced(voucher: Voucher) {
  let sum = 0;
  for (const line of voucher['ALLLEDGERENTRIES.LIST']) {
    const amount = paise(line.AMOUNT);
    expect(line.ISDEEMEDPOSITIVE === 'Yes', `${voucher.REMOTEID} ${line.LEDGERNAME}`).toBe(
      amount < 0,
    );
    sum += amount;
  }
  expect(sum, voucher.REMOTEID).toBe(0);
}
const exportXml = (payload: object) => ok(as('owner', '/accounting/tally-export', payload));

async function customer(mobileno: string, custname: string) {
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
    [mobileno, custname],
  );
  return { id: row!.id, mobileno, custname };
}
async function scheme(
  who: keyof typeof tokens,
  person: { id: number; mobileno: string; custname: string },
  amount: number,
  startdt: string,
) {
  const made = await enteredOn(startdt, () =>
    ok(
      as(who, '/scheme/generate', {
        custid: person.id,
        mobileno: person.mobileno,
        custname: person.custname,
        startdt,
        amount,
      }),
    ),
  );
  return made.json().data.schemeid as number;
}
const pay = (
  who: keyof typeof tokens,
  schemeid: number,
  date: string,
  mode: string,
  first = false,
  reference?: string,
) =>
  enteredOn(date, () =>
    ok(
      as(who, first ? '/scheme/activate' : '/scheme/add-installment', {
        schemeid,
        date,
        mode,
        ...(reference ? { reference } : {}),
      }),
    ),
  );
const points = (mobile: string, cashcr: 'CR' | 'DB', amount: number, date: string) =>
  ok(
    as('owner', '/customers/update-points', {
      formData: { MOBILENO: mobile, POINTS: amount, INVDATE: date, CASHCR: cashcr },
    }),
  );

beforeAll(async () => {
  tally = await startFakeTally(Object.values(DEFAULT_ACCOUNTING_SETTINGS).filter(Boolean));
  ctx = await createTestContext({ INSTALLMENTS: '2', TALLY_URL: tally.url }, clock.now);
  const session = async (name: keyof typeof tokens, role: Role, branch?: string) => {
    tokens[name] = (await staffSession(ctx, name, role, branch)).token;
  };
  await session('owner', 'owner');
  await ok(
    as('owner', '/branches', {
      code: 'PUNE',
      name: 'Pune showroom',
      address: '1 FC Road, Pune',
      phone: '+91 20 2345 6789',
    }),
  );
  await session('manager', 'manager');
  await session('cashier', 'cashier');
  await session('pune', 'cashier', 'PUNE');

  const jewels = await customer('9800000001', 'A&B <Jewels>');
  const kiran = await customer('9800000002', 'Kiran Mehta');
  const lata = await customer('9800000003', 'Lata Iyer');
  const s1 = await scheme('owner', jewels, 1000, '2026-10-01');
  await pay('owner', s1, '2026-10-01', 'cash', true);
  await pay('owner', s1, '2026-11-02', 'upi');
  const s2 = await scheme('pune', kiran, 2500, '2026-11-03');
  await pay('pune', s2, '2026-11-03', 'card', true, 'TXN<7>&"1"');
  const s3 = await scheme('owner', lata, 1500, '2026-10-05');
  await pay('owner', s3, '2026-10-05', 'bank', true);
  await pay('owner', s3, '2026-11-05', 'cheque');
  await ok(as('owner', '/scheme/close', { schemeid: s3 }));
  await points(kiran.mobileno, 'CR', 200, '2026-10-20');
  await points(jewels.mobileno, 'CR', 500, '2026-11-10');
  await points(jewels.mobileno, 'DB', 120, '2026-11-12');
});

afterAll(async () => {
  await ctx?.close();
  await tally?.close();
});

describe('accounting settings', () => {
  it('answers the default ledger names until the owner saves them, then the saved ones', async () => {
    const first = (await ok(as('owner', '/settings/accounting', undefined, 'GET'))).json();
    expect(first.data).toEqual({
      ...DEFAULT_ACCOUNTING_SETTINGS,
      isDefault: true,
      razorpaySettlements: false,
    });

    const form = { ...DEFAULT_ACCOUNTING_SETTINGS, company: 'Kanak Jewellers 2026-27' };
    const saved = (await ok(as('owner', '/settings/accounting', form))).json();
    expect(saved).toEqual({
      success: true,
      message: ACCOUNTING_MESSAGES.settingsSaved,
      data: { ...form, isDefault: false, razorpaySettlements: false },
    });
    const [audit] = await ctx.sql<{ action: string; after: unknown }>(
      `SELECT action, detail->'after' AS after FROM audit_log WHERE entity = 'accounting_settings'`,
    );
    expect(audit).toEqual({
      action: 'accounting.save',
      after: { company: 'Kanak Jewellers 2026-27' },
    });
  });

  it('refuses an empty ledger name with its label, and changes nothing', async () => {
    const response = await as('owner', '/settings/accounting', {
      ...DEFAULT_ACCOUNTING_SETTINGS,
      company: 'Another',
      cashLedger: '  ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Cash (cash installments) is required.');
    const read = (await ok(as('owner', '/settings/accounting', undefined, 'GET'))).json();
    expect(read.data.company).toBe('Kanak Jewellers 2026-27');
  });
});

describe('Tally export', () => {
  it('is one well-formed import file whose vouchers balance and match the cash book', async () => {
    const response = await exportXml({ from: '2026-11-01', to: '2026-11-30' });
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="tally-vouchers-2026-11-01-to-2026-11-30.xml"',
    );
    // This server has no Razorpay keys: the file holds none of Razorpay's payouts, and says so.
    expect(response.headers[RAZORPAY_SETTLEMENTS_HEADER]).toBe('not-set');
    const { company, vouchers } = vouchersOf(response.body);
    expect(company).toBe('Kanak Jewellers 2026-27');
    vouchers.forEach(expectBalanced);

    const receipts = vouchers.filter((voucher) => voucher.VCHTYPE === 'Receipt');
    const book = (
      await ok(as('owner', '/reports/collections', { from: '2026-11-01', to: '2026-11-30' }))
    ).json();
    expect(receipts.map((voucher) => voucher.VOUCHERNUMBER).sort()).toEqual(
      book.data
        .filter((row: { kind: string }) => row.kind === 'installment')
        .map((row: { receipt: string }) => row.receipt)
        .sort(),
    );
    const received = receipts.reduce(
      (sum, voucher) => sum + paise(voucher['ALLLEDGERENTRIES.LIST'][1]!.AMOUNT),
      0,
    );
    expect(received).toBe(book.totals.collected * 100);
    expect(received).toBe(500_000);

    // The customer's name, with & and <, reads back exactly as typed.
    expect(vouchers.some((voucher) => voucher.NARRATION.includes('A&B <Jewels>'))).toBe(true);
    expect(vouchers.some((voucher) => voucher.NARRATION.includes('ref. TXN<7>&"1"'))).toBe(true);

    const bonus = vouchers.find((voucher) => voucher.REMOTEID.startsWith('kanak-scheme-bonus-'));
    expect(bonus?.['ALLLEDGERENTRIES.LIST']).toEqual([
      { LEDGERNAME: 'Scheme Bonus', ISDEEMEDPOSITIVE: 'Yes', AMOUNT: '-1500.00' },
      { LEDGERNAME: 'Scheme Advances', ISDEEMEDPOSITIVE: 'No', AMOUNT: '1500.00' },
    ]);
    const pointsJournals = vouchers.filter((voucher) =>
      voucher.REMOTEID.startsWith('kanak-points-'),
    );
    expect(pointsJournals.map((voucher) => [voucher.REMOTEID, voucher.DATE])).toEqual([
      ['kanak-points-MAIN-2026-11', '20261130'],
    ]);
    // 500 issued less 120 redeemed, at ₹1 a point.
    expect(pointsJournals[0]!['ALLLEDGERENTRIES.LIST']).toEqual([
      { LEDGERNAME: 'Loyalty Points Expense', ISDEEMEDPOSITIVE: 'Yes', AMOUNT: '-380.00' },
      { LEDGERNAME: 'Loyalty Points Liability', ISDEEMEDPOSITIVE: 'No', AMOUNT: '380.00' },
    ]);
  });

  it("is exactly the reviewed example for this data set's month", async () => {
    const response = await exportXml({ from: '2026-11-01', to: '2026-11-30' });
    if (process.env.UPDATE_FIXTURES === '1') await writeFile(FIXTURE, response.body);
    expect(response.body).toBe(await readFile(FIXTURE, 'utf8'));
  });

  it("values the points journals so that they add up to the liability report's value", async () => {
    const { vouchers } = vouchersOf(
      (await exportXml({ from: '2026-10-01', to: '2026-11-30' })).body,
    );
    const liability = vouchers
      .filter((voucher) => voucher.REMOTEID.startsWith('kanak-points-'))
      .flatMap((voucher) => voucher['ALLLEDGERENTRIES.LIST'])
      .filter((line) => line.LEDGERNAME === 'Loyalty Points Liability')
      .reduce((sum, line) => sum + paise(line.AMOUNT), 0);
    const report = (await ok(as('owner', '/reports/points-liability', {}))).json();
    expect(liability).toBe(Math.round(report.totals.value * 100));
    expect(liability).toBe(58_000);
  });

  it("is one branch's vouchers when a branch is named", async () => {
    const response = await exportXml({ from: '2026-11-01', to: '2026-11-30', branch: 'pune' });
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="tally-vouchers-PUNE-2026-11-01-to-2026-11-30.xml"',
    );
    expect(response.headers[RAZORPAY_SETTLEMENTS_HEADER]).toBe('branch');
    const { vouchers } = vouchersOf(response.body);
    expect(vouchers.map((voucher) => voucher.VOUCHERNUMBER)).toEqual(['PUNE-000001']);
    expect(vouchers[0]!['ALLLEDGERENTRIES.LIST'][0]).toEqual({
      LEDGERNAME: 'Card Suspense',
      ISDEEMEDPOSITIVE: 'Yes',
      AMOUNT: '-2500.00',
    });
  });

  it('stays well formed with a name holding characters XML cannot carry, leaving them out', async () => {
    await ctx.sql(
      `UPDATE customers SET custname = 'Kiran\u0001 Mehta\uFFFF' WHERE mobileno = '9800000002'`,
    );
    try {
      const { vouchers } = vouchersOf(
        (await exportXml({ from: '2026-11-01', to: '2026-11-30', branch: 'PUNE' })).body,
      );
      expect(vouchers[0]!.NARRATION).toContain('Kiran Mehta (9800000002)');
    } finally {
      await ctx.sql(`UPDATE customers SET custname = 'Kiran Mehta' WHERE mobileno = '9800000002'`);
    }
  });

  it('reads the installments in batches without losing or repeating one at their edges', async () => {
    const whole = (await exportXml({ from: '2026-10-01', to: '2026-11-30' })).body;
    // Installments recorded in the same millisecond, as a busy chain's are.
    await ctx.sql(`UPDATE scheme_installments SET created_at = '2026-11-02 10:00:00.123456+05:30'`);
    const oneByOne = createAccountingService({
      db: ctx.database.db,
      schemes: schemesRepo,
      branches: branchesRepo,
      points: { movementByMonth: pointsMovementByMonth, pointValuePaise: async () => 100 },
      gateway: undefined,
      timeZone: 'Asia/Kolkata',
      tallyUrl: undefined,
      batchSize: 1,
    });
    let text = '';
    const owner: StaffIdentity = { id: 1, username: 'owner' };
    const { file } = await oneByOne.exportFile(owner, { from: '2026-10-01', to: '2026-11-30' });
    for await (const piece of file) text += piece;
    const ids = (xml: string) => vouchersOf(xml).vouchers.map((voucher) => voucher.REMOTEID);
    expect(ids(text).sort()).toEqual(ids(whole).sort());
    expect(ids(text)).toHaveLength(8);
  });

  it('is a well-formed file with no vouchers for days with nothing', async () => {
    const { vouchers } = vouchersOf(
      (await exportXml({ from: '2024-01-01', to: '2024-01-31' })).body,
    );
    expect(vouchers).toEqual([]);
  });

  it.each([
    [{ from: '2026-11-30', to: '2026-11-01' }, 'The from date must not be after the to date.'],
    [
      { from: '2026-02-30', to: '2026-03-01' },
      'The from date must be a real date in YYYY-MM-DD format.',
    ],
    [{ from: '2026-11-01' }, 'The to date is required.'],
    [
      { from: '2025-01-01', to: '2026-11-30' },
      'The range may cover at most 366 days; export it in parts.',
    ],
    [
      { from: '2026-11-01', to: '2026-11-30', branch: 'X1' },
      'Branch must be a branch code of 2 to 6 letters.',
    ],
  ])('refuses %j with a clear message', async (payload, message) => {
    const response = await as('owner', '/accounting/tally-export', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
  });

  it('refuses a branch that does not exist', async () => {
    const response = await as('owner', '/accounting/tally-export', {
      from: '2026-11-01',
      to: '2026-11-30',
      branch: 'GOA',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      message: ACCOUNTING_MESSAGES.unknownBranch,
    });
  });
});

describe('Tally push', () => {
  const range = { from: '2026-11-01', to: '2026-11-30' };

  it('creates the vouchers in Tally, then alters them when pushed again', async () => {
    const first = (await ok(as('owner', '/accounting/tally-push', range))).json();
    expect(first.data).toEqual({ vouchers: 5, created: 5, altered: 0, errors: 0, lineErrors: [] });
    expect(first.message).toBe(ACCOUNTING_MESSAGES.pushed(first.data));
    expect([...tally.vouchers.values()].every((voucher) => voucher.action === 'Create')).toBe(true);
    const exported = vouchersOf((await exportXml(range)).body).vouchers;
    expect([...tally.vouchers.keys()].sort()).toEqual(
      exported.map((voucher) => voucher.REMOTEID).sort(),
    );

    const again = (await ok(as('owner', '/accounting/tally-push', range))).json();
    expect(again.data).toEqual({ vouchers: 5, created: 0, altered: 5, errors: 0, lineErrors: [] });
    expect(tally.vouchers.size).toBe(5);
    // Those Tally already had went as alterations.
    expect([...tally.vouchers.values()].every((voucher) => voucher.action === 'Alter')).toBe(true);
    const remembered = await ctx.sql(`SELECT remote_id FROM tally_pushed_vouchers`);
    expect(remembered).toHaveLength(5);
    const audits = await ctx.sql(`SELECT 1 FROM audit_log WHERE action = 'accounting.tallyPush'`);
    expect(audits).toHaveLength(2);
  });

  it("shows Tally's refusals in Tally's words, and remembers none of that batch", async () => {
    await ok(
      as('owner', '/settings/accounting', { ...DEFAULT_ACCOUNTING_SETTINGS, cashLedger: 'Till' }),
    );
    const response = await ok(
      as('owner', '/accounting/tally-push', { from: '2026-10-01', to: '2026-10-31' }),
    );
    const result = response.json().data;
    expect(result.errors).toBe(1);
    expect(result.lineErrors).toEqual(["Ledger 'Till' does not exist!"]);
    expect(response.json().message).toBe(ACCOUNTING_MESSAGES.pushed(result));
    const remembered = await ctx.sql(
      `SELECT remote_id FROM tally_pushed_vouchers WHERE remote_id LIKE '%-2026-10'`,
    );
    expect(remembered).toEqual([]);
    await ok(as('owner', '/settings/accounting', DEFAULT_ACCOUNTING_SETTINGS));
  });

  it('the fake refuses an unbalanced voucher, as Tally does', async () => {
    const body =
      envelopeStart('') +
      voucherXml({
        remoteId: 'unbalanced',
        type: 'Journal',
        date: '2026-11-01',
        number: 'X',
        narration: '',
        lines: [
          { ledger: 'Cash', paise: 100, debit: true },
          { ledger: 'Scheme Advances', paise: 99, debit: false },
        ],
      }) +
      ENVELOPE_END;
    const answer = await (await fetch(tally.url, { method: 'POST', body })).text();
    expect(answer).toContain('<ERRORS>1</ERRORS>');
    expect(answer).toContain(
      '<LINEERROR>Voucher totals do not match! Dr: 1.00 Dr Cr: 0.99 Cr</LINEERROR>',
    );
  });

  it("says plainly when Tally's address is not set, and when Tally does not answer", async () => {
    const unset = await appOnDatabase(ctx.database, {}, clock.now);
    try {
      const response = await unset.inject(
        authed(tokens.owner!, {
          method: 'POST',
          url: '/api/accounting/tally-push',
          payload: range,
        }),
      );
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ success: false, message: ACCOUNTING_MESSAGES.tallyNotSet });
    } finally {
      await unset.close();
    }
    const away = await appOnDatabase(ctx.database, { TALLY_URL: 'http://127.0.0.1:1' }, clock.now);
    try {
      const response = await away.inject(
        authed(tokens.owner!, {
          method: 'POST',
          url: '/api/accounting/tally-push',
          payload: range,
        }),
      );
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(ACCOUNTING_MESSAGES.tallyUnreachable);
    } finally {
      await away.close();
    }
  });

  it('refuses a bad range before sending anything', async () => {
    const sent = tally.requests.length;
    const response = await as('owner', '/accounting/tally-push', {
      from: '2026-11-30',
      to: '2026-11-01',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      message: 'The from date must not be after the to date.',
    });
    expect(tally.requests.length).toBe(sent);
  });
});

describe('a Tally address that redirects, stalls or floods', () => {
  const range = { from: '2026-10-01', to: '2026-11-30' };
  /** A push through an app that gives Tally half a second, with the fake answering as `how`. */
  async function pushWhile(how: Misbehaviour) {
    const app = await appOnDatabase(
      ctx.database,
      { TALLY_URL: tally.url, TALLY_TIMEOUT: '0.5' },
      clock.now,
    );
    tally.misbehave = how;
    const before = await ctx.sql(`SELECT remote_id, last_pushed_at FROM tally_pushed_vouchers`);
    const started = performance.now();
    try {
      const response = await app.inject(
        authed(tokens.owner!, {
          method: 'POST',
          url: '/api/accounting/tally-push',
          payload: range,
        }),
      );
      const ms = performance.now() - started;
      // Tally's answer was not had: nothing is remembered as pushed.
      expect(await ctx.sql(`SELECT remote_id, last_pushed_at FROM tally_pushed_vouchers`)).toEqual(
        before,
      );
      return { response, ms };
    } finally {
      tally.misbehave = undefined;
      await app.close();
    }
  }

  it('a 307 elsewhere: not followed, the vouchers with names and mobiles never reach the other host', async () => {
    const elsewhere = await startRecorder();
    try {
      const { response } = await pushWhile({
        redirect: { status: 307, to: `${elsewhere.url}/collect` },
      });
      // What a followed 307 would have posted on: the customers' names and mobiles.
      expect(tally.requests.at(-1)).toContain('Kiran Mehta (9800000002)');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(elsewhere.received.map((request) => request.body)).toEqual([]);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        message: ACCOUNTING_MESSAGES.tallyRedirected,
      });
    } finally {
      await elsewhere.close();
    }
  });

  it.each([
    ['never answers', 'stallBeforeHeaders'],
    ['answers its headers, then nothing', 'stallAfterHeaders'],
  ] as const)('a Tally that %s: given up at TALLY_TIMEOUT, said plainly', async (_what, how) => {
    const { response, ms } = await pushWhile(how);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(ACCOUNTING_MESSAGES.tallyTimedOut(0.5));
    expect(ms).toBeLessThan(3000);
    await vi.waitFor(() =>
      expect(tally.misbehaved.at(-1)).toMatchObject({ how, closedEarly: true }),
    );
  });

  it('an answer without end: cut at 1 MB, said plainly, and Kanak still pushes afterwards', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const { response, ms } = await pushWhile({ flood: Number.POSITIVE_INFINITY });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(ACCOUNTING_MESSAGES.tallyAnswerTooLong(1));
    expect(ms).toBeLessThan(3000);
    await vi.waitFor(() => expect(tally.misbehaved.at(-1)).toMatchObject({ closedEarly: true }));
    // The fake wrote no more than the cap and the sockets' buffers before Kanak hung up.
    expect(tally.misbehaved.at(-1)!.bytesWritten).toBeLessThan(32 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    const again = await ok(as('owner', '/accounting/tally-push', range));
    expect(again.json().data).toMatchObject({ errors: 0 });
  });
});

describe('who may hand the books over', () => {
  it.each([
    ['manager', 'GET', '/settings/accounting'],
    ['manager', 'POST', '/settings/accounting'],
    ['manager', 'POST', '/accounting/tally-export'],
    ['cashier', 'POST', '/accounting/tally-export'],
    ['cashier', 'POST', '/accounting/tally-push'],
  ] as const)('a %s is refused %s %s', async (who, method, url) => {
    const payload = url.includes('settings')
      ? { ...DEFAULT_ACCOUNTING_SETTINGS, company: 'Not theirs' }
      : { from: '2026-11-01', to: '2026-11-30' };
    const sent = tally.requests.length;
    const response = await as(who, url, method === 'GET' ? undefined : payload, method);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.notAllowed });
    expect(tally.requests.length).toBe(sent);
  });

  it('nobody signed in is refused', async () => {
    for (const url of ['/api/accounting/tally-export', '/api/accounting/tally-push']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        payload: { from: '2026-11-01', to: '2026-11-30' },
      });
      expect(response.statusCode).toBe(401);
    }
  });
});
