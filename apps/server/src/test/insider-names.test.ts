import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  API_PATHS,
  API_PREFIX,
  hasWebAddress,
  MESSAGES,
  NAME_WITHHELD,
  POS_MESSAGES,
  type CustomerProfile,
  type ImportResult,
} from '@kanak/contract';
import { authed, staffSession } from '../../test/helpers.js';
import { noticeShop, type NoticeShop } from '../../test/notices.js';

/**
 * A cashier tries to make the shop's WhatsApp number send a text of their own: a customer name
 * that breaks out of its line, hides or reorders text, or carries a link, then consent and a
 * one-point credit so that a notice "Dear {name}, …" goes out.
 */

const TODAY = '2026-03-10';
const PHISHING = 'Customer\n\nURGENT: your account is blocked. Pay at http://evil.example/kyc';

let shop: NoticeShop;
let cashier: string;
let posKey: string;

beforeAll(async () => {
  shop = await noticeShop({ clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
  cashier = (await staffSession(shop, 'cashier7', 'cashier')).token;
  await shop.savePanel(1);
  const key = await shop.post(`${API_PREFIX}${API_PATHS.apiKeys}`, { label: 'Counter 1' });
  expect(key.statusCode, key.body).toBe(200);
  posKey = key.json<{ data: { key: string } }>().data.key;
});
afterAll(() => shop.close());

const asCashier = (options: InjectOptions & { idempotencyKey?: string }) =>
  shop.app.inject(authed(cashier, options));
const cashierPost = (path: string, payload: unknown) =>
  asCashier({ method: 'POST', url: `${API_PREFIX}${path}`, payload: payload as object });
const saveCustomer = (mobileno: string, custname: string) =>
  cashierPost(API_PATHS.saveCustomer, { formData: { custid: null, mobileno, custname } });
const posSale = (invoiceNo: string, mobile: string, name: string) =>
  shop.app.inject({
    method: 'POST',
    url: `${API_PREFIX}${API_PATHS.posSales}`,
    headers: { 'x-api-key': posKey },
    payload: {
      invoiceNo,
      invoiceDate: TODAY,
      mobile,
      name,
      lines: [{ category: 'gold', amount: 5000 }],
    },
  });

const expectRefused = (response: LightMyRequestResponse, message: string) => {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toMatchObject({ success: false });
  expect(response.json<{ message: string }>().message).toContain(message);
};
const customersWith = async (mobile: string) =>
  (await shop.sql(`SELECT id FROM customers WHERE mobileno = $1`, [mobile])).length;

/** Names that must not be taken, and what the assistant is told. */
const REFUSED: [string, string][] = [
  [PHISHING, MESSAGES.nameOnOneLine('Name')],
  ['Asha\nRao', MESSAGES.nameOnOneLine('Name')],
  ['Asha\rRao', MESSAGES.nameOnOneLine('Name')],
  ['Asha\tRao', MESSAGES.nameOnOneLine('Name')],
  ['Asha\u0085Rao', MESSAGES.nameOnOneLine('Name')],
  ['Asha\u2028Rao', MESSAGES.nameOnOneLine('Name')],
  ['Asha\u2029Rao', MESSAGES.nameOnOneLine('Name')],
  // Direction overrides and isolates: the text shown is not the text stored.
  ['Asha \u202Eoar\u202C', MESSAGES.nameOnOneLine('Name')],
  ['Asha \u2066Rao\u2069', MESSAGES.nameOnOneLine('Name')],
  ['Asha\u200BRao', MESSAGES.nameOnOneLine('Name')],
  ['Asha\uFEFFRao', MESSAGES.nameOnOneLine('Name')],
  ['Asha http://evil.example', MESSAGES.nameWithLink('Name')],
  ['Asha hxxp://evil', MESSAGES.nameWithLink('Name')],
  ['Asha WWW.evil.example', MESSAGES.nameWithLink('Name')],
  ['Asha pay at evil.com', MESSAGES.nameWithLink('Name')],
  ['Asha evil.example/kyc', MESSAGES.nameWithLink('Name')],
  // Any top-level domain, new or short: no list of them is ever complete.
  ['Asha - points frozen, verify KYC at kanak-kyc.store', MESSAGES.nameWithLink('Name')],
  ['pay-kyc.gold', MESSAGES.nameWithLink('Name')],
  ['rb.gy', MESSAGES.nameWithLink('Name')],
  ['is.gd', MESSAGES.nameWithLink('Name')],
  ['evil.ru', MESSAGES.nameWithLink('Name')],
  ['evil.cc', MESSAGES.nameWithLink('Name')],
  ['evil.gold?x=1', MESSAGES.nameWithLink('Name')],
  ['Asha evil.भारत', MESSAGES.nameWithLink('Name')],
  ['Asha evil.xn--h2brj9c', MESSAGES.nameWithLink('Name')],
  // An address by number, with or without a path.
  ['203.0.113.5/pay', MESSAGES.nameWithLink('Name')],
  ['Asha 203.0.113.5', MESSAGES.nameWithLink('Name')],
  // Dots that a browser or chat app reads as a domain's dot; letters in their wide forms.
  ['evil\u3002com', MESSAGES.nameWithLink('Name')],
  ['evil\uFF0Ecom', MESSAGES.nameWithLink('Name')],
  ['evil\uFF61com', MESSAGES.nameWithLink('Name')],
  ['evil\u2024com', MESSAGES.nameWithLink('Name')],
  ['evil\uFE52com', MESSAGES.nameWithLink('Name')],
  ['\uFF45\uFF56\uFF49\uFF4C\uFF0E\uFF43\uFF4F', MESSAGES.nameWithLink('Name')],
  // The joiners Indian scripts need do not hide a host either.
  ['evil\u200D.store', MESSAGES.nameWithLink('Name')],
  ['Asha asha@k.in', MESSAGES.nameWithLink('Name')],
  // Two words joined by a dot read as a host: the assistant is told to put a space after it.
  ['Mohd.Irfan', MESSAGES.nameWithLink('Name')],
  ['आशा.राव', MESSAGES.nameWithLink('Name')],
  // A degree's spelling with a path or under another domain is a link all the same.
  ['Ravi M.Com/kyc', MESSAGES.nameWithLink('Name')],
  ['Ravi pay.M.Com', MESSAGES.nameWithLink('Name')],
  ['Ravi M.Com.in', MESSAGES.nameWithLink('Name')],
  ['A'.repeat(101), 'Name must be at most 100 characters.'],
];

/** Names of real people in the shop's languages, stored and shown exactly as typed. */
const KEPT = [
  'आशा राव',
  'ஆஷா',
  "D'Souza",
  'Anne-Marie',
  'Rao Jr.',
  'K. Ramesh 2',
  'Dr. A.P.J. Abdul Kalam',
  'M/s. Lakshmi Jewellers',
  // Degrees after a name: a one-letter .com host is no one's link to choose.
  'Ravi M.Com',
  'Sita B.Com., B.Ed',
  'Anil B.Sc',
  // Initials, with or without a space after their dots; a dot then a space is a full stop.
  'K.Ramesh',
  'B.Com',
  "St. Mary's",
  'Dr. S. Iyer',
  'A.R. Rahman',
  'A.R.Rahman',
  'Smt. Lakshmi',
  'Mohd. Irfan',
  'Ph.D',
  'Ramesh 2.0',
  'के.आर. नारायणन',
  'கே.ஆர். ரமேஷ்',
  'এ.কে. দাস',
  'সুমিতা দাস',
  'ਗੁਰਪ੍ਰੀਤ ਕੌਰ',
  // The zero-width joiner and non-joiner choose a conjunct's shape in Indian scripts.
  'क्\u200Dष',
  'ശ്\u200Cര',
];

describe('a name is one line of text, from the profile form, the POS and the staff screen', () => {
  it('the cashier’s phishing name and every other breaking name: 400, nothing saved', async () => {
    let n = 0;
    for (const [name, message] of REFUSED) {
      const mobile = `97000${String(++n).padStart(5, '0')}`;
      expectRefused(await saveCustomer(mobile, name), message);
      expect(await customersWith(mobile), JSON.stringify(name)).toBe(0);
    }
  });

  it('a POS sale enrolling such a name: 400, no customer, no sale', async () => {
    const mobile = '9700000900';
    expectRefused(await posSale('NAME-1', mobile, PHISHING), MESSAGES.nameOnOneLine('Name'));
    expectRefused(
      await posSale('NAME-2', mobile, 'Asha www.evil.in'),
      MESSAGES.nameWithLink('Name'),
    );
    expect(await customersWith(mobile)).toBe(0);
    expect(await shop.sql(`SELECT id FROM pos_sales WHERE invoice_no LIKE 'NAME-%'`)).toEqual([]);
  });

  it('a staff member’s name: 400, no account', async () => {
    const response = await shop.post(`${API_PREFIX}${API_PATHS.staffAdd}`, {
      username: 'newcashier',
      name: 'Ravi\nURGENT call 9000000000',
      role: 'cashier',
    });
    expectRefused(response, MESSAGES.nameOnOneLine('Name'));
    expect(await shop.sql(`SELECT id FROM users WHERE username = 'newcashier'`)).toEqual([]);
  });

  it('names in any script, with digits, dots, apostrophes, dashes, ZWJ and ZWNJ keep working', async () => {
    let n = 0;
    for (const name of KEPT) {
      const mobile = `97100${String(++n).padStart(5, '0')}`;
      const saved = await saveCustomer(mobile, name);
      expect(saved.statusCode, `${name}: ${saved.body}`).toBe(200);
      expect(saved.json<{ data: CustomerProfile }>().data.custname).toBe(name);
      const [row] = await shop.sql<{ custname: string }>(
        `SELECT custname FROM customers WHERE mobileno = $1`,
        [mobile],
      );
      expect(row?.custname).toBe(name);
    }
    const enrolled = await posSale('NAME-OK', '9710000900', 'आशा राव');
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    const staff = await shop.post(`${API_PREFIX}${API_PATHS.staffAdd}`, {
      username: 'asha.counter',
      name: 'ஆஷா D\u2019Souza-Rao',
      role: 'cashier',
    });
    expect(staff.statusCode, staff.body).toBe(200);
  });

  it('a name left out of a POS sale for a known customer is still fine; for a new one it is asked for', async () => {
    expect((await posSale('NAME-OK2', '9710000900', '')).statusCode).toBe(200);
    const response = await posSale('NAME-NEW', '9710000901', '');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: POS_MESSAGES.nameNeededToEnrol });
  });
});

describe('a customers file from other software', () => {
  /** The owner's import of a CSV file (the import is the owner's). */
  async function importCustomers(text: string) {
    const form = new FormData();
    form.append('file', new Blob([`\uFEFF${text}`]), 'customers.csv');
    const request = new Request('http://kanak.test/', { method: 'POST', body: form });
    const response = await shop.inject({
      method: 'POST',
      url: `${API_PREFIX}${API_PATHS.importCustomers}`,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: ImportResult }>().data;
  }

  it('a row whose name holds a link is refused with the same words; real names come in', async () => {
    const rows: [string, string][] = [
      ['9730000001', 'Asha - points frozen, verify KYC at kanak-kyc.store'],
      ['9730000002', 'rb.gy'],
      ['9730000003', '203.0.113.5/pay'],
      ['9730000004', 'evil\u3002com'],
      ['9730000005', 'K.Ramesh'],
      ['9730000006', 'Dr. S. Iyer'],
    ];
    const result = await importCustomers(
      ['Mobile,Name', ...rows.map(([mobile, name]) => `${mobile},"${name}"`)].join('\n'),
    );
    expect(result).toMatchObject({ rows: 6, valid: 2, created: 2 });
    expect(result.errors).toEqual(
      [2, 3, 4, 5].map((row) => ({
        row,
        column: 'Name',
        message: MESSAGES.nameWithLink('Name'),
        // The owner's own file, shown back to the owner as the file holds it.
        value: rows[row - 2]![1],
        name: rows[row - 2]![1],
      })),
    );
    const stored = await shop.sql<{ mobileno: string; custname: string }>(
      `SELECT mobileno, custname FROM customers WHERE mobileno LIKE '973000000%' ORDER BY mobileno`,
    );
    expect(stored).toEqual([
      { mobileno: '9730000005', custname: 'K.Ramesh' },
      { mobileno: '9730000006', custname: 'Dr. S. Iyer' },
    ]);
  });
});

describe('names stored before the rule', () => {
  /** A consenting customer whose stored name is `stored` (written as an old release could). */
  async function legacyCustomer(mobile: string, stored: string) {
    const custid = await shop.customer(mobile, 'Placeholder');
    await shop.sql(`UPDATE customers SET custname = $1 WHERE id = $2`, [stored, custid]);
    return custid;
  }

  /** The cashier's one-point credit, sent by the sender: the text the provider received. */
  async function noticeSentTo(mobile: string) {
    shop.fake.reset();
    const credit = await cashierPost(API_PATHS.updatePoints, {
      formData: { MOBILENO: mobile, POINTS: 1, INVDATE: TODAY, CASHCR: 'CR' },
    });
    expect(credit.statusCode, credit.body).toBe(200);
    expect(await shop.sender().run()).toMatchObject({ sent: 1 });
    const [message] = shop.fake.messages.filter((m) => m.mobile === mobile);
    return message!.text;
  }

  it('are sent on one line, hidden characters removed', async () => {
    const mobile = '9720000001';
    await legacyCustomer(mobile, 'Asha\n\nURGENT:\tcall \u202E0000\u202C us\u2028now');
    const text = await noticeSentTo(mobile);
    expect(text).toBe(
      'Dear Asha URGENT: call 0000 us now, 1 point has been added to your points account at Kanak Jewellers. Your balance is now 1 points (worth ₹1).',
    );
    expect(text).not.toMatch(/[\n\r\t\u2028\u202E]/);
  });

  it('holding a link: the name is withheld, the link never sent', async () => {
    const mobile = '9720000002';
    await legacyCustomer(mobile, PHISHING);
    const text = await noticeSentTo(mobile);
    expect(text).toBe(
      `Dear ${NAME_WITHHELD}, 1 point has been added to your points account at Kanak Jewellers. Your balance is now 1 points (worth ₹1).`,
    );
    expect(text).not.toContain('evil');
    expect(text).not.toContain('URGENT');
  });

  it('holding a link under any domain, an address by number or a look-alike dot: withheld', async () => {
    const stored = [
      'Asha - points frozen, verify KYC at kanak-kyc.store',
      'pay-kyc.gold',
      'rb.gy',
      'Asha is.gd',
      'evil.gold?x=1',
      '203.0.113.5/pay',
      'Asha evil\u3002com',
      'Asha evil\uFF0Ecom',
    ];
    let n = 0;
    for (const name of stored) {
      const mobile = `97400${String(++n).padStart(5, '0')}`;
      await legacyCustomer(mobile, name);
      const text = await noticeSentTo(mobile);
      expect(text, name).toBe(
        `Dear ${NAME_WITHHELD}, 1 point has been added to your points account at Kanak Jewellers. Your balance is now 1 points (worth ₹1).`,
      );
      expect(hasWebAddress(text), text).toBe(false);
    }
  });

  it('in a notice queued before the rule: the name goes as it is sent today', async () => {
    const mobile = '9720000006';
    await legacyCustomer(mobile, PHISHING);
    shop.fake.reset();
    const credit = await cashierPost(API_PATHS.updatePoints, {
      formData: { MOBILENO: mobile, POINTS: 1, INVDATE: TODAY, CASHCR: 'CR' },
    });
    expect(credit.statusCode, credit.body).toBe(200);
    // The text as an older release rendered it, the stored name in it.
    await shop.sql(
      `UPDATE notices SET text = replace(text, $2, $3) WHERE mobile = $1 AND status = 'queued'`,
      [mobile, `Dear ${NAME_WITHHELD},`, `Dear ${PHISHING},`],
    );
    expect(await shop.sender().run()).toMatchObject({ sent: 1 });
    const [message] = shop.fake.messages.filter((m) => m.mobile === mobile);
    expect(message!.text).toBe(
      `Dear ${NAME_WITHHELD}, 1 point has been added to your points account at Kanak Jewellers. Your balance is now 1 points (worth ₹1).`,
    );
  });

  it('a name of Indian script with ZWJ is sent as it is', async () => {
    const mobile = '9720000003';
    await legacyCustomer(mobile, 'क्\u200Dष राव');
    expect(await noticeSentTo(mobile)).toMatch(/^Dear क्\u200Dष राव, /);
  });

  it('are answered cleaned by the profile, the search, the POS lookup and the exports', async () => {
    const mobile = '9720000004';
    await legacyCustomer(mobile, 'Meena\r\n\u202EPillai');
    const profile = await cashierPost(API_PATHS.customerData, { mobileno: mobile });
    expect(profile.json<{ data: CustomerProfile }>().data.custname).toBe('Meena Pillai');
    const search = await asCashier({
      method: 'GET',
      url: `${API_PREFIX}${API_PATHS.searchCustomers}?search=Meena`,
    });
    expect(search.json<{ data: unknown[] }>().data).toContainEqual({
      CUSTNAME: 'Meena Pillai',
      MOBILENO: mobile,
    });
    const lookup = await shop.app.inject({
      method: 'GET',
      url: `${API_PREFIX}${API_PATHS.posCustomer.replace(':mobile', mobile)}`,
      headers: { 'x-api-key': posKey },
    });
    expect(lookup.json<{ data: { custname: string } }>().data.custname).toBe('Meena Pillai');
    const manager = (await staffSession(shop, 'manager7', 'manager')).token;
    const exported = async (format: string) =>
      shop.app.inject(
        authed(manager, {
          method: 'GET',
          url: `${API_PREFIX}${API_PATHS.exportCustomers}?format=${format}`,
        }),
      );
    const json = await exported('json');
    expect(json.json<{ data: CustomerProfile[] }>().data).toContainEqual(
      expect.objectContaining({ mobileno: mobile, custname: 'Meena Pillai' }),
    );
    const csv = (await exported('csv')).body;
    expect(csv).toContain('Meena Pillai');
    expect(csv).not.toContain('\u202E');

    // A receipt, and its repeat (completed with the name as it is now), are made out cleaned.
    const custid = await legacyCustomer('9720000007', 'Kavya\n\u202ENair');
    const started = await cashierPost(API_PATHS.generateScheme, {
      custid,
      mobileno: '9720000007',
      startdt: TODAY,
      amount: 1000,
    });
    expect(started.statusCode, started.body).toBe(200);
    const activate = () =>
      asCashier({
        method: 'POST',
        url: `${API_PREFIX}${API_PATHS.activateScheme}`,
        payload: { schemeid: started.json().data.schemeid, date: TODAY, mode: 'upi' },
        idempotencyKey: 'receipt-of-kavya',
      });
    const receipt = await activate();
    expect(receipt.json<{ data: { custname: string } }>().data.custname).toBe('Kavya Nair');
    const repeated = await activate();
    expect(repeated.json()).toEqual(receipt.json());

    await legacyCustomer('9720000005', `Meena ${PHISHING}`);
    const withLink = await cashierPost(API_PATHS.customerData, { mobileno: '9720000005' });
    expect(withLink.json<{ data: CustomerProfile }>().data.custname).toBe(NAME_WITHHELD);
  });
});
