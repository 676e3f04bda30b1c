import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';
import {
  API_PATHS,
  DEFAULT_ACCOUNTING_SETTINGS,
  API_PREFIX,
  DEFAULT_NOTICE_TEXTS,
  LIMITS,
  MACHINE_PATHS,
  panelSetupRequest,
  saveCustomerRequest,
  saveNoticeTemplateRequest,
  MEMBER_API_PATHS,
} from '@kanak/contract';
import {
  addUser,
  authed,
  createTestContext,
  lateEntryReason,
  login,
  type TestContext,
} from '../../test/helpers.js';
import {
  codeNamesIn,
  fieldsOf,
  mutations,
  queryMutations,
  withValue,
} from '../../test/bad-input.js';
import { pathSpellings } from '../../test/raw-http.js';

/**
 * The bad-input sweep: every /api route gets missing fields, wrong types, empty and
 * over-long text, negative, fractional, huge and NaN-like numbers, impossible dates, unicode,
 * NUL characters, SQL and HTML meta-characters, oversized bodies, wrong content types and
 * broken JSON. Every answer must be a 4xx `{ success: false, message }`, never a 5xx, and what
 * is refused must change nothing in the database.
 */

const TODAY = '2026-02-10';
const NOW = new Date(`${TODAY}T12:00:00+05:30`);

let ctx: TestContext;
let token: string;

/** Records made once through the API, so that the valid bodies name records that exist. */
const seed = {
  gatekeeperPassword: 'Gatekeeper@19',
  customerA: { custid: 0, mobileno: '9876500001' },
  roundTrip: { custid: 0, mobileno: '9876500002' },
  customerC: { custid: 0, mobileno: '9876500003' },
  mrn: 0,
  inactiveScheme: 0,
  activeScheme: 0,
  image: { id: 0, path: '' },
  /** The counter's API key: the POS calls below are repeats of documents already posted. */
  apiKey: '',
  /** A notice the seed's changes wrote. */
  notice: 0,
};

/** A real 1x1 PNG: the server judges images by their bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Input =
  /** A JSON body (given the signed-in username); its fields are swept. */
  | { body: (username: string) => Record<string, unknown> }
  /** A query string; its fields are swept with text values. */
  | { query: () => Record<string, string> }
  /** Nothing to read (a document or a fixed answer): junk in the query must do no harm. */
  | { none: true }
  /** Swept by its own cases below (the multipart upload, the image id in the path). */
  | { own: true };

/**
 * Every /api route and a valid way to call it. A route missing here fails the first test, so a
 * new route cannot escape the sweep.
 */
const ROUTES: Record<string, Input> = {
  [`GET ${API_PATHS.health}`]: { none: true },
  [`GET ${API_PATHS.ready}`]: { none: true },
  [`GET ${API_PATHS.branding}`]: { none: true },
  [`GET ${API_PATHS.content}`]: { none: true },
  [`GET ${API_PATHS.image}`]: { own: true },
  [`POST ${API_PATHS.login}`]: {
    body: () => ({
      USERNAME: 'gatekeeper',
      PASSWORD: seed.gatekeeperPassword,
      stayLoggedIn: false,
    }),
  },
  // A wrong old password: whatever a mutation leaves valid, no password changes.
  // Ends the sweeper's session when it succeeds: swept by its own cases, each with its own token.
  [`POST ${API_PATHS.logout}`]: { own: true },
  [`GET ${API_PATHS.me}`]: { none: true },
  // The customer's own calls take a member token, not the sweeper's: members.test.ts tries
  // them, wrong codes, forged signatures and another customer's ids included.
  [`POST ${MEMBER_API_PATHS.memberOtp}`]: { own: true },
  [`POST ${MEMBER_API_PATHS.memberVerify}`]: { own: true },
  [`POST ${MEMBER_API_PATHS.memberLogout}`]: { own: true },
  [`GET ${MEMBER_API_PATHS.memberMe}`]: { own: true },
  [`GET ${MEMBER_API_PATHS.memberPoints}`]: { own: true },
  [`GET ${MEMBER_API_PATHS.memberScheme}`]: { own: true },
  [`POST ${MEMBER_API_PATHS.memberConsent}`]: { own: true },
  [`GET ${MEMBER_API_PATHS.memberDataExport}`]: { own: true },
  [`POST ${MEMBER_API_PATHS.memberPay}`]: { own: true },
  [`POST ${MEMBER_API_PATHS.memberPaymentVerify}`]: { own: true },
  [`POST ${MEMBER_API_PATHS.razorpayWebhook}`]: { own: true },
  [`GET ${API_PATHS.staff}`]: { none: true },
  [`GET ${API_PATHS.audit}`]: {
    query: () => ({
      user: 'sweeper',
      entity: 'customer',
      mobile: seed.customerA.mobileno,
      from: '2025-04-01',
      to: TODAY,
      page: '1',
      format: 'json',
    }),
  },
  // Every accepted call makes an account: a taken username (the sweeper) keeps it to a 409.
  [`POST ${API_PATHS.staffAdd}`]: {
    body: () => ({ username: 'sweeper', name: 'Sweep Staff', role: 'cashier' }),
  },
  [`POST ${API_PATHS.staffUpdate}`]: {
    body: () => ({ username: 'gatekeeper', name: 'Gate Keeper', role: 'owner' }),
  },
  [`POST ${API_PATHS.staffDisable}`]: { body: () => ({ username: 'no-such-user' }) },
  [`POST ${API_PATHS.staffEnable}`]: { body: () => ({ username: 'gatekeeper' }) },
  [`POST ${API_PATHS.staffResetPassword}`]: { body: () => ({ username: 'no-such-user' }) },
  [`GET ${API_PATHS.branches}`]: { none: true },
  // Updates the first branch with its own values: whatever a mutation leaves valid is saved.
  [`POST ${API_PATHS.saveBranch}`]: {
    body: () => ({
      code: 'MAIN',
      name: 'Main showroom',
      address: '12 Zaveri Bazaar, Mumbai 400002',
      phone: '+91 22 2342 1928',
    }),
  },
  [`GET ${API_PATHS.goldRates}`]: { query: () => ({ from: '2026-02-01', to: TODAY }) },
  [`GET ${API_PATHS.goldRateToday}`]: { none: true },
  // Whatever a mutation leaves valid enters or corrects today's rate: the sweep keeps it harmless.
  [`POST ${API_PATHS.saveGoldRate}`]: {
    body: () => ({ date: TODAY, rate22k: 6500.5, rate24k: 7090 }),
  },
  [`GET ${API_PATHS.schemePlans}`]: { none: true },
  // Whatever a mutation leaves valid adds or changes a plan no scheme uses: harmless.
  [`POST ${API_PATHS.saveSchemePlan}`]: {
    body: () => ({
      code: 'SWEEP',
      name: 'Sweep plan',
      kind: 'weight',
      installments: 11,
      minAmount: 1000,
      bonusPercent: 100,
    }),
  },
  [`GET ${API_PATHS.tiers}`]: { none: true },
  // Whatever a mutation leaves valid sets the tiers: the sweep's later calls earn as they may.
  [`POST ${API_PATHS.tiers}`]: {
    body: () => ({
      tiers: [{ code: 'GOLD', name: 'Gold', minSpend: 100000, earnPercent: 150 }],
      downgrade: 'anniversary',
    }),
  },
  [`POST ${API_PATHS.customerTier}`]: {
    body: () => ({ custid: seed.customerA.custid, tier: null, until: '2027-12-31' }),
  },
  // Uploads of files from other software: import.test.ts sweeps their bad files and cells.
  [`POST ${API_PATHS.importCustomers}`]: { own: true },
  [`POST ${API_PATHS.importSchemes}`]: { own: true },
  [`GET ${API_PATHS.importProgress}`]: { query: () => ({ key: 'no-such-import' }) },
  [`POST ${API_PATHS.updateCurrentUser}`]: {
    body: (username) => ({ username, oldpassword: 'Not-the-one1', newpassword: 'Fresh@2026x' }),
  },
  [`POST ${API_PATHS.uploadFile}`]: { own: true },
  [`POST ${API_PATHS.deleteFile}`]: { body: () => ({ ...seed.image }) },
  [`POST ${API_PATHS.getFiles}`]: { body: () => ({ type: 'banner' }) },
  [`GET ${API_PATHS.searchCustomers}`]: { query: () => ({ search: 'Sweep' }) },
  [`POST ${API_PATHS.updatePoints}`]: { body: () => ({ formData: pointsForm() }) },
  [`POST ${API_PATHS.redeemTerms}`]: { body: () => ({ mobile: seed.customerA.mobileno }) },
  [`POST ${API_PATHS.counterCustomer}`]: { body: () => ({ mobile: seed.customerA.mobileno }) },
  [`POST ${API_PATHS.redeemPoints}`]: {
    body: () => ({ mobile: seed.customerA.mobileno, points: 100, invoiceNo: 'SWEEP-1' }),
  },
  [`POST ${API_PATHS.updateStatement}`]: {
    body: () => ({ formData: { ...pointsForm(), MRN: seed.mrn } }),
  },
  [`POST ${API_PATHS.pointsStatement}`]: {
    body: () => ({ MOBILENO: seed.customerA.mobileno, DFROM: '2025-04-01', DTO: TODAY }),
  },
  [`GET ${API_PATHS.financialYear}`]: { none: true },
  [`POST ${API_PATHS.customerData}`]: { body: () => ({ mobileno: seed.customerA.mobileno }) },
  // Saves the round-trip customer: an accepted odd value must read back exactly.
  [`POST ${API_PATHS.saveCustomer}`]: { body: () => ({ formData: roundTripForm() }) },
  [`GET ${API_PATHS.exportCustomers}`]: { query: () => ({ format: 'csv' }) },
  // Takes no input, and every accepted call makes a ticket (a change, as a logout is): its
  // refusals are swept in customers.export-tickets.test.ts.
  [`POST ${API_PATHS.exportTicket}`]: { own: true },
  // Any ticket the sweep can make up is unknown: 404, or 400 when over-long.
  [`GET ${API_PATHS.exportDownload}`]: { query: () => ({ ticket: 'x'.repeat(43) }) },
  // Accepted calls record consent for customer A (a change, as a save is).
  [`POST ${API_PATHS.customerConsent}`]: {
    body: () => ({ custid: seed.customerA.custid, purpose: 'marketing', granted: true }),
  },
  [`GET ${API_PATHS.customerDataExport}`]: {
    query: () => ({ custid: String(seed.customerA.custid) }),
  },
  // Customer A has an Inactive scheme, so no accepted call can erase them (409).
  [`POST ${API_PATHS.eraseCustomer}`]: { body: () => ({ custid: seed.customerA.custid }) },
  [`GET ${API_PATHS.panelConfig}`]: { none: true },
  [`POST ${API_PATHS.panelSetup}`]: {
    body: () => ({
      formData: { instanceid: 'instance-1', token: 'token-1', panel: 2, phone: '9876543210' },
    }),
  },
  // The seed's panel points at no provider (the tests' loopback port): a test message that
  // passes the sweep is answered "not sent", and changes nothing.
  [`POST ${API_PATHS.testMessage}`]: { body: () => ({}) },
  // No official panel is set up here: the sync is refused (409) whatever junk comes with it.
  [`GET ${API_PATHS.whatsappTemplates}`]: { none: true },
  [`POST ${API_PATHS.whatsappTemplatesSync}`]: { body: () => ({}) },
  // Meta's webhook: unsigned or wrongly signed events and handshakes are its own file's
  // (whatsapp.webhook.test.ts), raw bodies and path spellings included.
  [`GET ${MEMBER_API_PATHS.whatsappWebhook}`]: { own: true },
  [`POST ${MEMBER_API_PATHS.whatsappWebhook}`]: { own: true },
  [`GET ${API_PATHS.noticeTemplates}`]: { none: true },
  // Saves schemeClosed's default text: whatever a mutation leaves valid is saved.
  [`POST ${API_PATHS.noticeTemplates}`]: {
    body: () => ({
      event: 'schemeClosed',
      enabled: true,
      text: DEFAULT_NOTICE_TEXTS.schemeClosed,
    }),
  },
  [`GET ${API_PATHS.notices}`]: {
    query: () => ({
      status: 'queued',
      event: 'pointsAdjusted',
      mobile: seed.customerA.mobileno,
      from: '2025-04-01',
      to: TODAY,
      page: '1',
    }),
  },
  // The seed's notices were skipped (no consent), never failed: an accepted call is a 409.
  [`POST ${API_PATHS.noticeResend}`]: { body: () => ({ id: seed.notice }) },
  [`POST ${API_PATHS.schemes}`]: { body: () => ({ custid: seed.customerA.custid }) },
  // Customer A's latest scheme is Inactive, so no accepted mutation can start another.
  [`POST ${API_PATHS.generateScheme}`]: {
    body: () => ({
      custid: seed.customerA.custid,
      mobileno: seed.customerA.mobileno,
      custname: '',
      startdt: TODAY,
      amount: 5000,
    }),
  },
  [`POST ${API_PATHS.verifyPan}`]: { body: () => ({ custid: seed.customerA.custid }) },
  [`POST ${API_PATHS.updatePan}`]: {
    body: () => ({ custid: seed.customerA.custid, pan: 'ABCDE1234F' }),
  },
  [`POST ${API_PATHS.deleteScheme}`]: { body: () => ({ schemeid: seed.inactiveScheme }) },
  [`POST ${API_PATHS.schemeStatement}`]: { body: () => ({ schemeid: seed.activeScheme }) },
  [`POST ${API_PATHS.schemeSummary}`]: {
    body: () => ({
      selected: 'All',
      formData: { mobileno: '', datefrom: '2025-01-01', dateto: TODAY },
    }),
  },
  [`POST ${API_PATHS.activateScheme}`]: {
    body: () => ({ schemeid: seed.inactiveScheme, date: TODAY, mode: 'cash', reference: '' }),
  },
  [`POST ${API_PATHS.addInstallment}`]: {
    body: () => ({
      schemeid: seed.activeScheme,
      date: TODAY,
      mode: 'upi',
      reference: 'UPI-1',
      narration: '',
    }),
  },
  [`POST ${API_PATHS.closeScheme}`]: { body: () => ({ schemeid: seed.activeScheme }) },
  [`POST ${API_PATHS.closeSchemePreview}`]: { body: () => ({ schemeid: seed.activeScheme }) },
  [`GET ${API_PATHS.pointsRules}`]: { none: true },
  [`POST ${API_PATHS.pointsRules}`]: { body: () => pointsRules() },
  [`GET ${API_PATHS.apiKeys}`]: { none: true },
  [`GET ${API_PATHS.dashboard}`]: { query: () => ({ branch: 'MAIN' }) },
  [`GET ${API_PATHS.myDay}`]: { none: true },
  [`GET ${API_PATHS.onlineRefunds}`]: { none: true },
  [`GET ${API_PATHS.backups}`]: { query: () => ({ page: '1' }) },
  // Takes no input, and every accepted call starts a backup (a change): its refusals are
  // swept in backups.test.ts.
  [`POST ${API_PATHS.backupNow}`]: { own: true },
  // No backup has been made: a body the schema takes names none (404).
  [`POST ${API_PATHS.backupTicket}`]: { body: () => ({ id: 1 }) },
  // Any ticket the sweep can make up is unknown: 404, or 400 when over-long.
  [`GET ${API_PATHS.backupDownload}`]: { query: () => ({ ticket: 'x'.repeat(43) }) },
  [`GET ${API_PATHS.shopSettings}`]: { none: true },
  // Saves the shop's settings as the first start made them: whatever a mutation leaves valid
  // is saved.
  [`PUT ${API_PATHS.saveShopSettings}`]: {
    body: () => ({
      companyName: 'Kanak Jewellers',
      tagline: 'Since 1928',
      gstin: '27AAPFU0939F1ZV',
      supportPhone: '+91 80 4718 2200',
      poweredBy: 'Kanak Technologies',
    }),
  },
  // A multipart upload: settings.test.ts sends it files that are no logo.
  [`POST ${API_PATHS.uploadShopLogo}`]: { own: true },
  // Takes no input, and every call claims its Idempotency-Key (a change): settings.test.ts
  // removes a logo there is not.
  [`DELETE ${API_PATHS.removeShopLogo}`]: { own: true },
  // No logo: 404, whatever the query.
  [`GET ${API_PATHS.shopLogo}`]: { none: true },
  // No such payment: a body the schema takes is refused as not waiting for a refund.
  [`POST ${API_PATHS.markOnlineRefund}`]: {
    body: () => ({ paymentId: 'pay_sweep', reference: 'rfnd_sweep' }),
  },
  [`POST ${API_PATHS.collectionsReport}`]: {
    body: () => report({ from: '2025-04-01', to: TODAY }),
  },
  [`POST ${API_PATHS.overdueReport}`]: { body: () => report({ asOf: TODAY }) },
  [`POST ${API_PATHS.maturingReport}`]: { body: () => report({ from: TODAY, to: '2026-03-12' }) },
  [`POST ${API_PATHS.pointsLiabilityReport}`]: { body: () => report({}) },
  [`POST ${API_PATHS.unrecoveredReport}`]: {
    body: () => report({ from: '2025-04-01', to: TODAY }),
  },
  [`POST ${API_PATHS.apiKeys}`]: { body: () => ({ label: 'Sweep counter', branch: 'SWP' }) },
  [`POST ${API_PATHS.apiKeyRevoke}`]: { body: () => ({ id: 999_999 }) },
  [`GET ${API_PATHS.accountingSettings}`]: { none: true },
  [`POST ${API_PATHS.accountingSettings}`]: {
    body: () => ({ ...DEFAULT_ACCOUNTING_SETTINGS, company: 'Sweep Jewellers' }),
  },
  [`POST ${API_PATHS.tallyExport}`]: {
    body: () => ({ from: '2025-04-01', to: TODAY, branch: 'MAIN' }),
  },
  // No TALLY_URL here: a body the schema takes is refused with the address's message.
  [`POST ${API_PATHS.tallyPush}`]: { body: () => ({ from: '2025-04-01', to: TODAY }) },
  // Each a repeat of a document posted in the seed: the stored answer, nothing changes.
  [`POST ${API_PATHS.posSales}`]: { body: () => posSale() },
  [`POST ${API_PATHS.posReturns}`]: { body: () => posReturn() },
  [`POST ${API_PATHS.posRedemptions}`]: { body: () => posRedemption() },
  [`POST ${API_PATHS.posRedemptionCancel}`]: { body: () => ({ invoiceNo: 'SWEEP-D2' }) },
  [`GET ${API_PATHS.posCustomer}`]: { none: true },
  // The API's own documents: public, fixed text.
  [`GET /openapi.json`]: { none: true },
};
/** Swagger UI's pages and files under /api/docs take no input either. */
const isDocsPage = (key: string) => key.startsWith('GET /docs');

const pointsForm = () => ({
  CUSTNAME: '',
  MOBILENO: seed.customerA.mobileno,
  POINTS: 10,
  NARRATION: 'Sweep',
  INVDATE: TODAY,
  CASHCR: 'CR',
});

const pointsRules = () => ({
  rupeesPerPoint: 100,
  excludedCategories: ['coin', 'bullion'],
  pointValue: 1,
  minRedeemPoints: 100,
  expiryMonths: 24,
});
/** A report's filter with the dates it reads; the page, its size, JSON and one branch. */
const report = (dates: Record<string, string>) => ({
  ...dates,
  branch: 'MAIN',
  page: 1,
  pageSize: 50,
  format: 'json',
});

const posSale = () => ({
  invoiceNo: 'SWEEP-S1',
  invoiceDate: TODAY,
  mobile: seed.customerA.mobileno,
  name: 'Asha Sweep',
  lines: [{ description: 'Ring', category: 'gold', amount: 25_000.5 }],
});
const posReturn = () => ({
  returnNo: 'SWEEP-X1',
  invoiceNo: 'SWEEP-S1',
  returnDate: TODAY,
  lines: [{ description: 'Ring', category: 'gold', amount: 100 }],
});
const posRedemption = () => ({
  invoiceNo: 'SWEEP-D1',
  mobile: seed.customerA.mobileno,
  points: 100,
});

const roundTripForm = () => ({
  custid: seed.roundTrip.custid,
  mobileno: seed.roundTrip.mobileno,
  custname: 'Round Trip',
  email: '',
  address: '',
  city: '',
  pincode: '',
  state: '',
  dob: '',
  doa: '',
  aadhaar: '',
  pan: '',
});

const MACHINE_URLS = new Set(MACHINE_PATHS.map((name) => API_PREFIX + API_PATHS[name]));

interface Route {
  key: string;
  method: 'GET' | 'POST';
  url: string;
  public: boolean;
  schema: { body?: z.ZodType; querystring?: z.ZodType };
  input: Input;
}

/** The app's own routes under /api, each with its entry in ROUTES. */
function apiRoutes(): Route[] {
  return ctx.app.registeredRoutes
    .filter((route) => route.url.startsWith(`${API_PREFIX}/`))
    .map((route) => {
      const key = `${route.method} ${route.url.slice(API_PREFIX.length)}`;
      return {
        key,
        method: route.method as Route['method'],
        url: route.url,
        public: route.public,
        schema: (route.schema ?? {}) as Route['schema'],
        // A route missing from ROUTES fails the first test; meanwhile it gets the junk queries.
        input: ROUTES[key] ?? { none: true },
      };
    });
}
const routesWith = <K extends 'body' | 'query' | 'none'>(kind: K) =>
  apiRoutes().filter((route): route is Route & { input: Extract<Input, Record<K, unknown>> } =>
    Object.hasOwn(route.input, kind),
  );
const routeAt = (path: string) => apiRoutes().find((route) => route.url === API_PREFIX + path)!;

/**
 * What a case expects: this status, one of these, or only "no server error" (with a proper
 * 4xx if refused).
 */
type Expected = number | readonly number[] | 'no server error';

interface Case {
  label: string;
  request: InjectOptions;
  expected: Expected;
  /** The keys of the route's schema: a refusal's message shows none of them as code. */
  keys?: readonly string[];
}

let remote = 0;
/** Sign-in is limited per IP: every request comes from its own address. */
const nextAddress = () => {
  remote++;
  return `10.${(remote >> 16) & 255}.${(remote >> 8) & 255}.${remote & 255}`;
};

interface Staff {
  username: string;
  token: string;
}
/**
 * Password changes are limited per user (a few tries in 15 minutes), so their cases are spread
 * over a pool of staff, each used below the limit.
 */
const profileStaff: Staff[] = [];
let profileRequests = 0;
function staffFor(route: Route): Staff {
  if (route.url !== API_PREFIX + API_PATHS.updateCurrentUser) return { username: 'sweeper', token };
  const perUser = LIMITS.passwordChangeAttemptsPerUserPer15Minutes - 1;
  const staff = profileStaff[Math.floor(profileRequests++ / perUser)];
  if (!staff) throw new Error('profileStaff is too small for the password-change cases');
  return staff;
}

/**
 * The request for `route`, signed in unless the route is public. `body` is sent as JSON unless
 * `raw` gives the exact bytes and content type.
 */
function requestFor(
  route: Route,
  input: {
    body?: unknown;
    query?: Record<string, unknown>;
    raw?: { payload: string | Buffer; contentType?: string };
    staff?: Staff;
  },
): InjectOptions {
  const staff = input.staff ?? staffFor(route);
  const payload = input.raw
    ? { payload: input.raw.payload, contentType: input.raw.contentType }
    : input.body === undefined
      ? undefined
      : { payload: JSON.stringify(input.body), contentType: 'application/json' };
  const options: InjectOptions = {
    method: route.method,
    url: route.url.replace(':id', '1').replace(':mobile', seed.customerA.mobileno),
    remoteAddress: nextAddress(),
    ...(payload ? { payload: payload.payload } : {}),
    headers: payload?.contentType ? { 'content-type': payload.contentType } : {},
    ...(input.query ? { query: input.query as Record<string, string> } : {}),
  };
  if (MACHINE_URLS.has(route.url))
    return { ...options, headers: { ...options.headers, 'x-api-key': seed.apiKey } };
  return route.public ? options : authed(staff.token, options);
}

/** What is wrong with the answer to one case, in words; empty when it is as expected. */
function problemsWith(testCase: Case, response: LightMyRequestResponse): string[] {
  const { statusCode: status } = response;
  const where = `${testCase.label} -> ${status}`;
  const text = response.body.slice(0, 200);
  if (status >= 500) return [`${where}: server error ${text}`];
  const { expected } = testCase;
  if (typeof expected === 'number' && status !== expected)
    return [`${where}: expected ${expected} ${text}`];
  if (Array.isArray(expected) && !expected.includes(status))
    return [`${where}: expected one of ${expected.join(', ')} ${text}`];
  if (status < 400) return [];
  let body: { success?: unknown; message?: unknown } = {};
  try {
    body = response.json();
  } catch {
    return [`${where}: not JSON ${text}`];
  }
  if (body.success !== false || typeof body.message !== 'string' || !body.message.trim())
    return [`${where}: no { success: false, message } ${text}`];
  const codeNames = codeNamesIn(body.message, testCase.keys ?? []);
  if (codeNames.length > 0) return [`${where}: shows ${codeNames.join(', ')}: ${body.message}`];
  return [];
}

/**
 * A digest of every table in the public schema, and every sequence's position (a refused
 * insert would still use up an id).
 */
async function fingerprint(): Promise<Record<string, string>> {
  fingerprintSql ??= await buildFingerprintSql();
  const rows = await ctx.sql<{ name: string; digest: string }>(fingerprintSql);
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}
let fingerprintSql: string | undefined;

async function buildFingerprintSql() {
  const tables = await ctx.sql<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
  );
  return [
    ...tables.map(
      ({ name }) =>
        `SELECT '${name}' AS name,
           md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS digest FROM ${name} t`,
    ),
    `SELECT 'sequence ' || sequencename, coalesce(last_value, 0)::text
       FROM pg_sequences WHERE schemaname = 'public'`,
  ].join(' UNION ALL ');
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);

/**
 * Sends the cases a few at a time, checks each answer, and checks that no batch changed the
 * database. Returns every problem found, so that one run lists them all.
 */
async function runUnchanged(cases: Case[], batchSize = 32): Promise<string[]> {
  const problems: string[] = [];
  let before = await fingerprint();
  for (let i = 0; i < cases.length; i += batchSize) {
    const batch = cases.slice(i, i + batchSize);
    const responses = await Promise.all(batch.map((c) => ctx.app.inject(c.request)));
    batch.forEach((c, j) => problems.push(...problemsWith(c, responses[j]!)));
    const after = await fingerprint();
    const changed = changedTables(before, after);
    if (changed.length > 0) {
      problems.push(`changed ${changed.join(', ')} in: ${batch.map((c) => c.label).join(' | ')}`);
      before = after;
    }
  }
  return problems;
}

/**
 * Each field of each route's schema set to each bad value, split by the schema's own verdict:
 * what it refuses must get 400; what it accepts must still never get a 5xx.
 */
function fieldCases() {
  const refused: Case[] = [];
  const accepted: Case[] = [];
  const add = (schema: z.ZodType, input: unknown, testCase: Omit<Case, 'expected'>) => {
    if (schema.safeParse(input).success)
      accepted.push({ ...testCase, expected: 'no server error' });
    else refused.push({ ...testCase, expected: 400 });
  };
  for (const route of routesWith('body')) {
    const schema = route.schema.body;
    if (!schema) throw new Error(`${route.key} has a body in ROUTES but no body schema`);
    const keys = fieldsOf(schema).map((field) => field.path.at(-1)!);
    for (const field of fieldsOf(schema)) {
      for (const mutation of mutations(field.maxLength)) {
        const staff = staffFor(route);
        const body = withValue(route.input.body(staff.username), field.path, mutation.value);
        add(schema, body, {
          label: `${route.key} ${field.path.join('.')} = ${mutation.label}`,
          request: requestFor(route, { body, staff }),
          keys,
        });
      }
    }
  }
  for (const route of routesWith('query')) {
    const schema = route.schema.querystring;
    if (!schema) throw new Error(`${route.key} has a query in ROUTES but no query schema`);
    const keys = fieldsOf(schema).map((field) => field.path.at(-1)!);
    for (const field of fieldsOf(schema)) {
      for (const mutation of queryMutations(field.maxLength)) {
        const query = withValue(route.input.query(), field.path, mutation.value) as object;
        add(schema, query, {
          label: `${route.key} ?${field.path.join('.')} = ${mutation.label}`,
          request: requestFor(route, { query: { ...query } }),
          keys,
        });
      }
    }
  }
  return { refused, accepted };
}

/** Whole bodies that are not a form at all: too big, not JSON, the wrong kind of content. */
function bodyCases(): Case[] {
  const cases: Case[] = [];
  for (const route of routesWith('body')) {
    const raw = (label: string, expected: Expected, payload: string, contentType?: string) =>
      cases.push({
        label: `${route.key} body: ${label}`,
        request: requestFor(route, { raw: { payload, contentType } }),
        expected,
      });
    const json = 'application/json';
    raw('over 256 KB', 413, JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), json);
    raw('malformed JSON', 400, '{"formData": {', json);
    raw('NaN literal', 400, '{"POINTS": NaN}', json);
    raw('Infinity literal', 400, '{"POINTS": Infinity}', json);
    raw('single quotes', 400, "{'a': 1}", json);
    raw('trailing comma', 400, '{"a": 1,}', json);
    raw('empty with a JSON type', 400, '', json);
    raw('JSON null', 400, 'null', json);
    raw('JSON array', 400, '[]', json);
    raw('JSON text', 400, '"text"', json);
    raw('JSON number', 400, '42', json);
    raw('deeply nested', 400, `${'['.repeat(5000)}${']'.repeat(5000)}`, json);
    raw('__proto__ key', 400, '{"__proto__": {"isAdmin": true}}', json);
    raw('constructor.prototype', 400, '{"constructor": {"prototype": {"x": 1}}}', json);
    raw('text/plain', 415, 'hello', 'text/plain');
    raw('XML', 415, '<formData/>', 'application/xml');
    raw('form-urlencoded', 415, 'a=1&b=2', 'application/x-www-form-urlencoded');
    raw('multipart', 415, '--x\r\n\r\n--x--\r\n', 'multipart/form-data; boundary=x');
    // Fastify reads JSON as UTF-8 whatever the charset says: {"a": 1} is then a form without
    // its fields, which only a form of optional fields that ignores others (a report's filter)
    // accepts.
    const fieldless = route.schema.body?.safeParse({ a: 1 }).success;
    raw('UTF-16 charset', fieldless ? 200 : 400, '{"a": 1}', 'application/json; charset=utf-16');
    raw('no content type', 415, '{"a": 1}');
    cases.push({
      label: `${route.key} body: none`,
      request: requestFor(route, {}),
      expected: 400,
    });
  }
  return cases;
}

/**
 * A valid body with a missing or malformed Idempotency-Key: a route that changes data must
 * refuse it (the sweep checks the database did not change); a reading route may answer.
 */
function idempotencyKeyCases(): Case[] {
  const keys: [string, string | undefined][] = [
    ['missing', undefined],
    ['too short', 'abc'],
    ['too long', 'k'.repeat(101)],
    ['with a slash', '../../etc/passwd'],
    ['Devanagari', 'कुंजी-12345678'],
  ];
  return routesWith('body')
    .filter((route) => !route.public)
    .flatMap((route) =>
      keys.map(([label, key]) => {
        const staff = staffFor(route);
        const request = requestFor(route, { body: route.input.body(staff.username), staff });
        const headers = { ...(request.headers as Record<string, string>) };
        if (key === undefined) delete headers['idempotency-key'];
        else headers['idempotency-key'] = key;
        return {
          label: `${route.key} Idempotency-Key ${label}`,
          request: { ...request, headers },
          expected: 'no server error' as const,
        };
      }),
    );
}

/** A valid call with no token or a bad one: 401 on every route that is not public. */
function tokenCases(): Case[] {
  const authorizations: [string, string | undefined][] = [
    ['no token', undefined],
    ['garbage token', 'Bearer not-a-token'],
    ['empty bearer', 'Bearer '],
    ['basic auth', 'Basic c3dlZXBlcjpTd2VlcGVyQDE5Mjg='],
    ['huge token', `Bearer ${'a'.repeat(20_000)}`],
    ['token with NUL', `Bearer ${token.slice(0, 10)}\u0000${token.slice(10)}`],
  ];
  return apiRoutes()
    .filter((route) => !route.public)
    .flatMap((route) =>
      authorizations.map(([label, authorization]) => {
        const input = route.input;
        const request = requestFor(route, {
          ...('body' in input ? { body: input.body('sweeper') } : {}),
          ...('query' in input ? { query: input.query() } : {}),
        });
        const headers = { ...(request.headers as Record<string, string>) };
        delete headers['x-api-key'];
        if (authorization === undefined) delete headers.authorization;
        else headers.authorization = authorization;
        return { label: `${route.key} ${label}`, request: { ...request, headers }, expected: 401 };
      }),
    );
}

/**
 * A valid call without a token at other spellings of its path (escaped letters, doubled
 * slashes, another case, a NUL): refused (401) or not found (404), never served. The spellings
 * `inject` would tidy before sending (absolute-form, dot segments) are sent raw by the
 * security tests.
 */
function spellingCases(): Case[] {
  return apiRoutes()
    .filter((route) => !route.public)
    .flatMap((route) => {
      const input = route.input;
      const request = requestFor(route, {
        ...('body' in input ? { body: input.body('sweeper') } : {}),
        ...('query' in input ? { query: input.query() } : {}),
      });
      const headers = { ...(request.headers as Record<string, string>) };
      delete headers.authorization;
      delete headers['x-api-key'];
      return pathSpellings(request.url as string)
        .filter(({ target }) => target.startsWith('/') && !/\/\.\.?\//.test(target))
        .map(({ target, reachesRoute }) => ({
          label: `${route.key} as ${target}`,
          request: { ...request, url: target, headers },
          expected: reachesRoute ? 401 : ([401, 404] as const),
        }));
    });
}

/** Query strings a browser would never send: broken escapes, invalid UTF-8, nested keys. */
const JUNK_QUERIES = [
  'a=%00',
  'a=%ED%A0%80',
  'a=%FF%FE',
  'a=%',
  'a=%zz',
  'a[]=1&a[]=2',
  'a[b]=c',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  `a=${'x'.repeat(50_000)}`,
];

function rawQueryCases(): Case[] {
  const junk = JUNK_QUERIES;
  const cases: Case[] = [];
  for (const route of [...routesWith('query'), ...routesWith('none')]) {
    const names = 'query' in route.input ? Object.keys(route.input.query()) : ['junk'];
    for (const name of names) {
      for (const query of junk) {
        const request = requestFor(route, {});
        cases.push({
          label: `${route.key} ?${query.slice(0, 40).replace(/^a/, name)}`,
          request: { ...request, url: `${request.url}?${query.replace(/^a/, name)}` },
          // A route that reads nothing may ignore junk; a refusal must be a proper one.
          expected: 'no server error',
        });
      }
    }
  }
  return cases;
}

/** The public image address with ids that are not ids: 404, never a database error. */
function imageIdCases(): Case[] {
  const ids = [
    'abc',
    '-1',
    '0',
    '1.5',
    '1e99',
    '0x10',
    '2147483648',
    '99999999999999999999',
    '00000000001',
    'NaN',
    'Infinity',
    '%00',
    '%F0%9F%92%8D',
    '%27%20OR%201%3D1',
    '%3Cscript%3E',
    '9'.repeat(200),
    '%',
    '%zz',
    '%E0%A4%A',
    '2147483647',
  ];
  return ids.map((id) => ({
    label: `GET /app/images/${id.slice(0, 30)}`,
    request: { method: 'GET', url: `${API_PREFIX}/app/images/${id}` },
    expected: 404,
  }));
}

type Part = [name: string, value: string | { bytes: Buffer; filename: string }];

/** A multipart body as a browser's FormData sends it. */
async function multipart(parts: Part[]) {
  const form = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)]), value.filename);
  }
  const request = new Request('http://kanak.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

/** The upload with a missing, wrong or lying file, and the `type` field swept like any other. */
async function uploadCases(): Promise<Case[]> {
  const route = routeAt(API_PATHS.uploadFile);
  const png = { bytes: PNG, filename: 'ring.png' };
  const upload = async (label: string, expected: Expected, parts: Part[]) => {
    const { payload, contentType } = await multipart(parts);
    return {
      label: `${route.key} ${label}`,
      request: requestFor(route, { raw: { payload, contentType } }),
      expected,
    };
  };
  const cases = [
    await upload('no file', 400, [['type', 'banner']]),
    await upload('no type', 400, [['file', png]]),
    await upload('type poster', 400, [
      ['type', 'poster'],
      ['file', png],
    ]),
    await upload('the file in another field', 400, [
      ['type', 'banner'],
      ['image', png],
    ]),
    await upload('the file as a text field', 400, [
      ['type', 'banner'],
      ['file', PNG.toString('latin1')],
    ]),
    await upload('a text file named .png', 415, [
      ['type', 'banner'],
      ['file', { bytes: Buffer.from('just some text, not an image'), filename: 'ring.png' }],
    ]),
    await upload('an HTML file named .png', 415, [
      ['type', 'banner'],
      ['file', { bytes: Buffer.from('<html><script>alert(1)</script>'), filename: 'x.png' }],
    ]),
    await upload('an empty file', 400, [
      ['type', 'banner'],
      ['file', { bytes: Buffer.alloc(0), filename: 'ring.png' }],
    ]),
    await upload('two files', 400, [
      ['type', 'banner'],
      ['file', png],
      ['file', png],
    ]),
    await upload('over 5 MB', 413, [
      ['type', 'banner'],
      [
        'file',
        { bytes: Buffer.concat([PNG, Buffer.alloc(LIMITS.imageMaxBytes)]), filename: 'big.png' },
      ],
    ]),
  ];
  for (const mutation of mutations(10)) {
    if (typeof mutation.value !== 'string') continue;
    cases.push(
      await upload(`type = ${mutation.label}`, 400, [
        ['type', mutation.value],
        ['file', png],
      ]),
    );
  }
  const raw = (label: string, expected: Expected, payload: string, contentType?: string) => ({
    label: `${route.key} ${label}`,
    request: requestFor(route, { raw: { payload, contentType } }),
    expected,
  });
  cases.push(
    raw('as JSON', 415, '{"type": "banner", "file": "x"}', 'application/json'),
    raw('as text', 415, 'banner', 'text/plain'),
    raw(
      'cut-off multipart',
      400,
      '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nban',
      'multipart/form-data; boundary=x',
    ),
    raw('multipart without a boundary', 400, '--x\r\n\r\n--x--\r\n', 'multipart/form-data'),
    raw('no body', 415, ''),
  );
  return cases;
}

/**
 * Logout takes no input, so junk may be ignored (the token is then ended) or refused (then
 * the token must still work). Each case has a token of its own.
 */
function logoutCases(sweeper: { id: number; username: string; tokenVersion: number }) {
  const route = routeAt(API_PATHS.logout);
  const json = 'application/json';
  const bodies: [string, string, string | undefined][] = [
    ['a form', '{"username": "sweeper", "all": true}', json],
    ['malformed JSON', '{"a": ', json],
    ['JSON null', 'null', json],
    ['__proto__ key', '{"__proto__": {"isAdmin": true}}', json],
    ['over 256 KB', JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), json],
    ['text/plain', 'hello', 'text/plain'],
    ['XML', '<logout/>', 'application/xml'],
    ['no content type', '{"a": 1}', undefined],
  ];
  const cases: {
    label: string;
    query?: string;
    raw?: { payload: string; contentType?: string };
  }[] = [
    ...JUNK_QUERIES.map((query) => ({ label: `?${query.slice(0, 40)}`, query })),
    ...bodies.map(([label, payload, contentType]) => ({ label, raw: { payload, contentType } })),
  ];
  return cases.map(({ label, query, raw }) => {
    const staff = { username: sweeper.username, token: ctx.app.signSessionToken(sweeper, false) };
    const request = requestFor(route, { staff, ...(raw ? { raw } : {}) });
    return {
      label: `${route.key} ${label}`,
      token: staff.token,
      request: query ? { ...request, url: `${request.url}?${query}` } : request,
    };
  });
}

beforeAll(async () => {
  ctx = await createTestContext({}, () => NOW);
  await addUser(ctx, 'sweeper', 'Sweeper@1928');
  await addUser(ctx, 'gatekeeper', seed.gatekeeperPassword);
  token = await login(ctx, 'sweeper', 'Sweeper@1928');
  // Copies of sweeper (same password hash) for the rate-limited password-change cases.
  const copies = await ctx.sql<{ id: number; username: string; token_version: number }>(
    `INSERT INTO users (username, password_hash)
     SELECT 'profile' || n, password_hash FROM users, generate_series(1, 60) n
     WHERE username = 'sweeper' RETURNING id, username, token_version`,
  );
  for (const user of copies) {
    const identity = { id: user.id, username: user.username, tokenVersion: user.token_version };
    profileStaff.push({
      username: user.username,
      token: ctx.app.signSessionToken(identity, false),
    });
  }
  await seedThroughApi();
}, 60_000);
afterAll(() => ctx.close());

async function call<T>(path: string, payload: unknown): Promise<T> {
  const response = await ctx.app.inject(
    authed(token, { method: 'POST', url: `${API_PREFIX}${path}`, payload: payload as object }),
  );
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.body}`);
  return response.json<{ data: T }>().data;
}

async function seedThroughApi() {
  const customer = async (mobileno: string, custname: string, pan = '') =>
    (
      await call<{ custid: number }>(API_PATHS.saveCustomer, {
        formData: { ...roundTripForm(), custid: null, mobileno, custname, pan },
      })
    ).custid;
  seed.customerA.custid = await customer(seed.customerA.mobileno, 'Asha Sweep', 'ABCDE1234F');
  seed.roundTrip.custid = await customer(seed.roundTrip.mobileno, 'Round Trip');
  seed.customerC.custid = await customer(seed.customerC.mobileno, 'Chandra Sweep');

  await call(API_PATHS.updatePoints, {
    formData: { ...pointsForm(), POINTS: 500, INVDATE: '2026-01-15' },
  });
  const rows = await call<{ MRN: number; TS: string }[]>(API_PATHS.pointsStatement, {
    MOBILENO: seed.customerA.mobileno,
    DFROM: '2026-01-01',
    DTO: TODAY,
  });
  seed.mrn = rows.find((row) => row.TS === 'M')!.MRN;

  const scheme = async (custid: number, mobileno: string, startdt: string) =>
    (
      await call<{ schemeid: number }>(API_PATHS.generateScheme, {
        custid,
        mobileno,
        custname: '',
        startdt,
        amount: 3000,
        ...lateEntryReason(startdt, NOW),
      })
    ).schemeid;
  seed.inactiveScheme = await scheme(seed.customerA.custid, seed.customerA.mobileno, '2026-01-05');
  seed.activeScheme = await scheme(seed.customerC.custid, seed.customerC.mobileno, '2025-12-01');
  await call(API_PATHS.activateScheme, {
    schemeid: seed.activeScheme,
    date: '2025-12-01',
    mode: 'cash',
    reference: '',
    ...lateEntryReason('2025-12-01', NOW),
  });

  const { payload, contentType } = await multipart([
    ['type', 'banner'],
    ['file', { bytes: PNG, filename: 'banner.png' }],
  ]);
  const uploaded = await ctx.app.inject(
    authed(token, {
      method: 'POST',
      url: `${API_PREFIX}${API_PATHS.uploadFile}`,
      payload,
      headers: { 'content-type': contentType },
    }),
  );
  const image = uploaded.json<{ data: { ID: number; PATH: string } }>().data;
  seed.image = { id: image.ID, path: image.PATH };

  await call(API_PATHS.panelSetup, {
    formData: { instanceid: 'instance-1', token: 'token-1', panel: 1, phone: '9876543210' },
  });

  seed.apiKey = (await call<{ key: string }>(API_PATHS.apiKeys, { label: 'Sweep till' })).key;
  // Its last use is noted at most once a minute: a use "in the future" keeps the sweep's
  // repeats from writing it, so that they change nothing at all.
  await ctx.sql(`UPDATE api_keys SET last_used_at = now() + interval '1 day'`);
  const pos = async (path: string, payload: unknown) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API_PREFIX}${path}`,
      payload: payload as object,
      headers: { 'x-api-key': seed.apiKey },
    });
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.body}`);
  };
  await pos(API_PATHS.posSales, posSale());
  await pos(API_PATHS.posReturns, posReturn());
  await pos(API_PATHS.posRedemptions, posRedemption());
  await pos(API_PATHS.posRedemptions, { ...posRedemption(), invoiceNo: 'SWEEP-D2' });
  await pos(API_PATHS.posRedemptionCancel, { invoiceNo: 'SWEEP-D2' });
  const [notice] = await ctx.sql<{ id: number }>(`SELECT id FROM notices ORDER BY id LIMIT 1`);
  seed.notice = notice!.id;
}

/**
 * A sweep sends thousands of requests and fingerprints the database between them: its time
 * grows with every route and table, and a shared CI machine has taken over 120 s for one.
 */
const SWEEP_TIMEOUT_MS = 300_000;

describe('the bad-input sweep', () => {
  let fields: ReturnType<typeof fieldCases>;
  beforeAll(() => {
    fields = fieldCases();
  });

  it('has an entry for every /api route, and every entry is a route', () => {
    const keys = apiRoutes().map((route) => route.key);
    expect(keys.filter((key) => !ROUTES[key] && !isDocsPage(key))).toEqual([]);
    expect(Object.keys(ROUTES).filter((key) => !keys.includes(key))).toEqual([]);
  });

  it('starts every route from a body its schema accepts', () => {
    for (const route of routesWith('body')) {
      expect(route.schema.body!.safeParse(route.input.body('sweeper')).success, route.key).toBe(
        true,
      );
    }
  });

  it('lets no schema take text PostgreSQL cannot store exactly: NUL, half an emoji', () => {
    const unstorable = / = (NUL character|unpaired surrogate)$/;
    expect(fields.refused.filter((c) => unstorable.test(c.label)).length).toBeGreaterThan(50);
    expect(fields.accepted.filter((c) => unstorable.test(c.label)).map((c) => c.label)).toEqual([]);
  });

  it('lets no number field take a boolean, a list, or text that is not plain digits', () => {
    const notANumber = new Set([
      'boolean',
      'object',
      'empty array',
      'array of text',
      'text NaN',
      'text Infinity',
      'text negative',
      'text fraction',
      'text exponent',
      'text hex',
    ]);
    const taken: string[] = [];
    for (const route of routesWith('body')) {
      const schema = route.schema.body!;
      for (const field of fieldsOf(schema).filter((f) => f.numeric)) {
        for (const mutation of mutations().filter((m) => notANumber.has(m.label))) {
          const body = withValue(route.input.body('sweeper'), field.path, mutation.value);
          if (schema.safeParse(body).success)
            taken.push(`${route.key} ${field.path.join('.')} = ${mutation.label}`);
        }
      }
    }
    expect(taken).toEqual([]);
  });

  it(
    'refuses every field value the schema refuses with 400 and a message, and changes nothing',
    async () => {
      expect(fields.refused.length).toBeGreaterThan(2500);
      expect(await runUnchanged(fields.refused)).toEqual([]);
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'refuses broken bodies, bad tokens, other spellings of a path and bad Idempotency-Keys, and changes nothing',
    async () => {
      const cases = [...bodyCases(), ...tokenCases(), ...spellingCases(), ...idempotencyKeyCases()];
      expect(await runUnchanged(cases, 8)).toEqual([]);
    },
    SWEEP_TIMEOUT_MS,
  );

  it('refuses broken query strings and image ids, and changes nothing', async () => {
    // A query the export ignores (`?__proto__[x]=1`) is its JSON form. Its first run in a
    // database writes the export turns' rows (bookkeeping shared by the exports): made here.
    const exported = await ctx.app.inject(
      authed(token, { method: 'GET', url: API_PREFIX + API_PATHS.exportCustomers }),
    );
    expect(exported.statusCode, exported.body).toBe(200);
    expect(await runUnchanged([...rawQueryCases(), ...imageIdCases()])).toEqual([]);
  });

  it('refuses uploads without a proper image or type, and changes nothing', async () => {
    expect(await runUnchanged(await uploadCases(), 4)).toEqual([]);
  });

  it('takes junk with a logout without a server error: refused, the token works on; taken, it ends', async () => {
    const [sweeper] = await ctx.sql<{ id: number; username: string; token_version: number }>(
      `SELECT id, username, token_version FROM users WHERE username = 'sweeper'`,
    );
    const identity = { ...sweeper!, tokenVersion: sweeper!.token_version };
    const problems: string[] = [];
    const statuses = new Set<number>();
    for (const testCase of logoutCases(identity)) {
      const response = await ctx.app.inject(testCase.request);
      statuses.add(response.statusCode);
      problems.push(...problemsWith({ ...testCase, expected: 'no server error' }, response));
      const probe = await ctx.app.inject(
        authed(testCase.token, { method: 'GET', url: `${API_PREFIX}${API_PATHS.financialYear}` }),
      );
      const ended = response.statusCode < 400;
      if (probe.statusCode !== (ended ? 401 : 200))
        problems.push(
          `${testCase.label} -> ${response.statusCode}, then the token got ${probe.statusCode}`,
        );
    }
    expect(problems).toEqual([]);
    // Both kinds happened: some junk is ignored, some refused.
    expect([...statuses].some((status) => status === 200)).toBe(true);
    expect([...statuses].some((status) => status >= 400)).toBe(true);
  });

  it('stores unicode, emoji, SQL and HTML text in a narration and a reference exactly as typed', async () => {
    const texts = mutations()
      .filter(({ label }) => ODD_TEXT.includes(label))
      .map(({ value }) => value as string);
    expect(texts).toHaveLength(ODD_TEXT.length);
    const mobileno = '9876500009';
    const custid = (
      await call<{ custid: number }>(API_PATHS.saveCustomer, {
        formData: { ...roundTripForm(), custid: null, mobileno, custname: 'Odd Text' },
      })
    ).custid;
    for (const text of texts) {
      await call(API_PATHS.updatePoints, {
        formData: { ...pointsForm(), MOBILENO: mobileno, NARRATION: text },
      });
      const { schemeid } = await call<{ schemeid: number }>(API_PATHS.generateScheme, {
        custid,
        mobileno,
        custname: '',
        startdt: TODAY,
        amount: 1000,
      });
      await call(API_PATHS.activateScheme, { schemeid, date: TODAY, mode: 'upi', reference: text });
      const [installment] = await call<{ narration: string }[]>(API_PATHS.schemeStatement, {
        schemeid,
      });
      expect(installment!.narration).toContain(text);
    }
    const rows = await call<{ NARRATION: string }[]>(API_PATHS.pointsStatement, {
      MOBILENO: mobileno,
      DFROM: TODAY,
      DTO: TODAY,
    });
    expect(rows.map((row) => row.NARRATION)).toEqual(texts);
  });

  it(
    'never answers 5xx to a value the schema accepts; a refusal changes nothing, a saved text reads back exactly',
    async () => {
      expect(fields.accepted.length).toBeGreaterThan(300);
      const problems: string[] = [];
      let before = await fingerprint();
      for (const testCase of fields.accepted) {
        const response = await ctx.app.inject(testCase.request);
        problems.push(...problemsWith(testCase, response));
        if (response.statusCode < 400) problems.push(...(await readsBack(testCase)));
        const after = await fingerprint();
        if (response.statusCode >= 400) {
          const changed = changedTables(before, after).filter(
            (name) => !BOOKKEEPING.has(name) && !name.startsWith('sequence '),
          );
          if (changed.length > 0)
            problems.push(`${testCase.label}: refused but changed ${changed}`);
        }
        before = after;
      }
      expect(problems).toEqual([]);
    },
    SWEEP_TIMEOUT_MS,
  );
});

/** Text that is odd but valid: it must be stored and shown exactly as typed. */
const ODD_TEXT = [
  'Devanagari',
  'emoji',
  'right-to-left override',
  'zero-width space',
  'control characters',
  'SQL quote',
  'SQL statement',
  'SQL wildcards',
  'HTML script',
  'HTML img onerror',
];

/**
 * What a refusal may change, by design: a failed sign-in is counted (the lockout), a request
 * to a rate-limited route is counted, and a refused change's answer is kept under its Idempotency-Key so that a retry gets the same
 * answer. A refused insert may also use up a sequence number.
 */
const BOOKKEEPING = new Set([
  'login_lockouts',
  'login_address_lockouts',
  'rate_limit_hits',
  'idempotency_keys',
]);

/** After an accepted save, the stored values are exactly what the schema made of the input. */
async function readsBack(testCase: Case): Promise<string[]> {
  const { url, payload } = testCase.request;
  if (url === `${API_PREFIX}${API_PATHS.saveCustomer}`) {
    const { formData } = saveCustomerRequest.parse(JSON.parse(payload as string));
    const stored = await call<Record<string, unknown>>(API_PATHS.customerData, {
      mobileno: formData.mobileno,
    });
    const { aadhaar: _masked, custid: _id, ...expected } = formData;
    return differences(testCase, expected, stored);
  }
  if (url === `${API_PREFIX}${API_PATHS.panelSetup}`) {
    const { formData } = panelSetupRequest.parse(JSON.parse(payload as string));
    const response = await ctx.app.inject(
      authed(token, { method: 'GET', url: `${API_PREFIX}${API_PATHS.panelConfig}` }),
    );
    return differences(testCase, formData, response.json<{ data: Record<string, unknown> }>().data);
  }
  if (url === `${API_PREFIX}${API_PATHS.noticeTemplates}`) {
    const saved = saveNoticeTemplateRequest.parse(JSON.parse(payload as string));
    const response = await ctx.app.inject(
      authed(token, { method: 'GET', url: `${API_PREFIX}${API_PATHS.noticeTemplates}` }),
    );
    const stored = response
      .json<{ data: Record<string, unknown>[] }>()
      .data.find((template) => template.event === saved.event)!;
    return differences(testCase, saved, stored);
  }
  return [];
}

function differences(testCase: Case, expected: object, stored: Record<string, unknown>) {
  return Object.entries(expected)
    .filter(([name, value]) => stored[name] !== value)
    .map(
      ([name, value]) =>
        `${testCase.label}: ${name} reads back as ${JSON.stringify(stored[name])}, sent ${JSON.stringify(value)}`,
    );
}
