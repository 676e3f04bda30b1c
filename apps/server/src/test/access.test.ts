import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS,
  API_PATHS,
  API_PREFIX,
  MACHINE_PATHS,
  MEMBER_PATHS,
  MESSAGES,
  POS_MESSAGES,
  ROLES,
  type Role,
  MEMBER_API_PATHS,
} from '@kanak/contract';
import { authPlugin } from '../plugins/auth.js';
import {
  addUser,
  authed,
  createTestContext,
  TEST_SECRETS,
  type TestContext,
} from '../../test/helpers.js';

/** The contract's access matrix, walked route by route as each role. */

let ctx: TestContext;
const staff = {} as Record<Role, { id: number; username: string; tokenVersion: number }>;

beforeAll(async () => {
  ctx = await createTestContext();
  for (const role of ROLES) {
    const user = await addUser(ctx, `${role}1`, `${role[0]!.toUpperCase()}${role}@1928x`, role);
    staff[role] = { id: user.id, username: user.username, tokenVersion: user.tokenVersion };
  }
});
afterAll(() => ctx.close());

/** A token of its own for every request: a logout in the walk must not end the next call's. */
const tokenOf = (role: Role) => ctx.app.signSessionToken(staff[role], false);

const pathOf = Object.fromEntries(
  Object.entries({ ...API_PATHS, ...MEMBER_API_PATHS }).map(([name, path]) => [
    `${API_PREFIX}${path}`,
    name,
  ]),
);

const machineUrls = new Set(MACHINE_PATHS.map((name) => `${API_PREFIX}${API_PATHS[name]}`));
/** The calls no staff token opens: the POS's and the customer's own. */
const notForStaff = new Set(
  [
    ...MACHINE_PATHS.map((name) => API_PATHS[name]),
    ...MEMBER_PATHS.map((name) => MEMBER_API_PATHS[name]),
  ].map((path) => `${API_PREFIX}${path}`),
);

describe('the access matrix', () => {
  it('opens the POS calls to an API key only: every staff role gets 401, no key 401', async () => {
    const made = await ctx.app.inject(
      authed(tokenOf('owner'), {
        method: 'POST',
        url: '/api/settings/api-keys',
        payload: { label: 'Matrix counter' },
      }),
    );
    const key = made.json<{ data: { key: string } }>().data.key;
    const routes = ctx.app.registeredRoutes.filter((route) => machineUrls.has(route.url));
    expect(routes.length).toBe(MACHINE_PATHS.length);
    const problems: string[] = [];
    for (const route of routes) {
      const request = {
        method: route.method as 'GET' | 'POST',
        url: route.url.replace(':mobile', '9000000009'),
        ...(route.method === 'GET' ? {} : { payload: {} }),
      };
      for (const role of ROLES) {
        const response = await ctx.app.inject(authed(tokenOf(role), request));
        if (response.statusCode !== 401)
          problems.push(`${role} ${route.url} -> ${response.statusCode}`);
      }
      const none = await ctx.app.inject(request);
      if (none.statusCode !== 401 || none.json().message !== POS_MESSAGES.apiKeyRequired)
        problems.push(`no key ${route.url} -> ${none.statusCode}`);
      const keyed = await ctx.app.inject({ ...request, headers: { 'x-api-key': key } });
      if ([401, 403].includes(keyed.statusCode)) problems.push(`key ${route.url} -> refused`);
    }
    // And a key opens nothing else.
    for (const route of ctx.app.registeredRoutes.filter(
      (r) => !r.public && !notForStaff.has(r.url),
    )) {
      const response = await ctx.app.inject({
        method: route.method as 'GET' | 'POST',
        url: route.url.replace(/:(\w+)/g, '1'),
        headers: { 'x-api-key': key },
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      if (response.statusCode !== 401) problems.push(`key ${route.url} -> ${response.statusCode}`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses each role exactly the calls the contract denies it, with 403, before reading the request', async () => {
    const routes = ctx.app.registeredRoutes.filter(
      (route) => !route.public && !notForStaff.has(route.url),
    );
    // Every path the matrix names is served; a GET and a POST may share one (read and change).
    const pathsInMatrix = new Set(
      Object.keys(ACCESS).map((name) => `${API_PREFIX}${API_PATHS[name as keyof typeof ACCESS]}`),
    );
    expect(new Set(routes.map((route) => route.url))).toEqual(pathsInMatrix);
    const problems: string[] = [];
    for (const route of routes) {
      const name = (route.access ?? pathOf[route.url]) as keyof typeof ACCESS;
      for (const role of ROLES) {
        const response = await ctx.app.inject(
          authed(tokenOf(role), {
            method: route.method as 'GET' | 'POST',
            url: route.url.replace(/:(\w+)/g, '1'),
            ...(route.method === 'GET' ? {} : { payload: {} }),
          }),
        );
        const allowed = ACCESS[name].includes(role);
        const where = `${role} ${route.method} ${route.url} -> ${response.statusCode}`;
        if (allowed && response.statusCode === 403) problems.push(`${where}: refused`);
        if (!allowed) {
          if (response.statusCode !== 403) problems.push(`${where}: not refused`);
          else if (response.json().message !== MESSAGES.notAllowed)
            problems.push(`${where}: ${response.body}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the settings with the owner, and corrections, exports, scheme closing, refunds and the delivery log with managers', () => {
    const deniedTo = (role: Role) =>
      Object.entries(ACCESS)
        .filter(([, roles]) => !roles.includes(role))
        .map(([name]) => name)
        .sort();
    expect(deniedTo('owner')).toEqual([]);
    expect(deniedTo('manager')).toEqual(
      [
        'accountingSettings',
        'apiKeyRevoke',
        'apiKeys',
        'backupNow',
        'backupTicket',
        'backups',
        'removeShopLogo',
        'saveShopSettings',
        'shopSettings',
        'uploadShopLogo',
        'branches',
        'customerTier',
        'deleteFile',
        'eraseCustomer',
        'getFiles',
        'importCustomers',
        'importProgress',
        'importSchemes',
        'noticeTemplates',
        'panelConfig',
        'panelSetup',
        'pointsRules',
        'saveBranch',
        'saveSchemePlan',
        'tallyExport',
        'tallyPush',
        'testMessage',
        'tiers',
        'uploadFile',
        'whatsappTemplates',
        'whatsappTemplatesSync',
      ].sort(),
    );
    expect(deniedTo('cashier')).toEqual(
      [
        'accountingSettings',
        'apiKeyRevoke',
        'apiKeys',
        'backupNow',
        'backupTicket',
        'backups',
        'removeShopLogo',
        'saveShopSettings',
        'shopSettings',
        'uploadShopLogo',
        'audit',
        'branches',
        'closeScheme',
        'closeSchemePreview',
        'collectionsReport',
        'customerDataExport',
        'customerTier',
        'dashboard',
        'deleteFile',
        'deleteScheme',
        'eraseCustomer',
        'exportCustomers',
        'exportTicket',
        'getFiles',
        'importCustomers',
        'importProgress',
        'importSchemes',
        'noticeResend',
        'noticeTemplates',
        'notices',
        'markOnlineRefund',
        'maturingReport',
        'onlineRefunds',
        'overdueReport',
        'panelConfig',
        'panelSetup',
        'pointsLiabilityReport',
        'pointsRules',
        'saveBranch',
        'saveGoldRate',
        'saveSchemePlan',
        'staff',
        'staffAdd',
        'staffDisable',
        'staffEnable',
        'staffResetPassword',
        'staffUpdate',
        'tallyExport',
        'tallyPush',
        'testMessage',
        'tiers',
        'unrecoveredReport',
        'updateStatement',
        'uploadFile',
        'whatsappTemplates',
        'whatsappTemplatesSync',
      ].sort(),
    );
  });

  it('changes nothing when it refuses: a cashier cannot correct a ledger entry', async () => {
    const saved = await ctx.app.inject(
      authed(tokenOf('owner'), {
        method: 'POST',
        url: '/api/customers/update-customer-data',
        payload: { formData: { mobileno: '9812300001', custname: 'Matrix Customer' } },
      }),
    );
    expect(saved.statusCode).toBe(200);
    const credit = await ctx.app.inject(
      authed(tokenOf('cashier'), {
        method: 'POST',
        url: '/api/customers/update-points',
        payload: {
          formData: { MOBILENO: '9812300001', POINTS: 50, INVDATE: '2026-01-02', CASHCR: 'CR' },
        },
      }),
    );
    expect(credit.statusCode, credit.body).toBe(200);
    const [entry] = await ctx.sql<{ mrn: number }>(`SELECT mrn FROM points_entries`);
    const edit = await ctx.app.inject(
      authed(tokenOf('cashier'), {
        method: 'POST',
        url: '/api/customers/update-statement',
        payload: {
          formData: {
            MRN: entry!.mrn,
            MOBILENO: '9812300001',
            POINTS: 5000,
            INVDATE: '2026-01-02',
            CASHCR: 'CR',
          },
        },
      }),
    );
    expect(edit.statusCode).toBe(403);
    expect(await ctx.sql(`SELECT credit FROM points_entries`)).toEqual([{ credit: 50 }]);
    expect(
      await ctx.sql(`SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = $1`, [
        staff.cashier.id,
      ]),
    ).toEqual([{ n: 1 }]);
  });

  it('refuses an export link to a manager who was made a cashier after asking for it', async () => {
    const manager = await addUser(ctx, 'demoted1', 'Demoted@1928x', 'manager');
    const token = ctx.app.signSessionToken(manager, false);
    const ticket = await ctx.app.inject(
      authed(token, { method: 'POST', url: '/api/customers/export-ticket' }),
    );
    expect(ticket.statusCode, ticket.body).toBe(200);
    await ctx.sql(`UPDATE users SET role = 'cashier' WHERE username = 'demoted1'`);
    const download = await ctx.app.inject({ method: 'GET', url: ticket.json().data.url });
    expect(download.statusCode).toBe(403);
    expect(download.json()).toEqual({ success: false, message: MESSAGES.notAllowed });
  });

  it('lets a cashier with a temporary password call only me, update-current-user and logout', async () => {
    const fresh = await addUser(ctx, 'fresh1', 'Cfresh@1928x', 'cashier');
    await ctx.sql(`UPDATE users SET must_change_password = true WHERE id = $1`, [fresh.id]);
    const freshToken = () => ctx.app.signSessionToken(fresh, false);
    const open = new Set(['me', 'updateCurrentUser', 'logout']);
    const problems: string[] = [];
    for (const route of ctx.app.registeredRoutes.filter(
      (r) => !r.public && !notForStaff.has(r.url),
    )) {
      const name = pathOf[route.url] as keyof typeof ACCESS;
      const response = await ctx.app.inject(
        authed(freshToken(), {
          method: route.method as 'GET' | 'POST',
          url: route.url.replace(/:(\w+)/g, '1'),
          ...(route.method === 'GET' ? {} : { payload: {} }),
        }),
      );
      const where = `${route.method} ${route.url} -> ${response.statusCode}`;
      if (open.has(name)) {
        if (response.statusCode === 403) problems.push(`${where}: refused`);
        continue;
      }
      if (response.statusCode !== 403) problems.push(`${where}: not refused`);
      // A call cashiers may make otherwise waits for the new password; the rest is not theirs.
      else if (
        ACCESS[name].includes('cashier') &&
        response.json().message !== MESSAGES.changeTemporaryPassword
      )
        problems.push(`${where}: ${response.body}`);
    }
    expect(problems).toEqual([]);
  });

  it('tells the signed-in staff member who they are: GET /api/me', async () => {
    for (const role of ROLES) {
      const response = await ctx.app.inject(
        authed(tokenOf(role), { method: 'GET', url: '/api/me' }),
      );
      expect(response.json()).toEqual({
        success: true,
        data: {
          username: `${role}1`,
          name: `${role}1`,
          role,
          branch: {
            code: 'MAIN',
            name: 'Main showroom',
            address: '12 Zaveri Bazaar, Mumbai 400002',
            phone: '+91 22 2342 1928',
          },
          mustChangePassword: false,
        },
      });
    }
  });

  it('does not start with a route that is neither public nor in the matrix', async () => {
    const app = Fastify();
    await app.register(authPlugin, {
      secret: TEST_SECRETS.jwtSecret,
      findSessionUser: async () => undefined,
      findMemberSession: async () => undefined,
      findApiKey: async () => undefined,
      wrongApiKeys: {
        count: async () => ({ current: 0, ttl: 0 }),
        current: async () => ({ current: 0, ttl: 0 }),
      },
    });
    app.get('/api/unplaced', async () => ({ success: true }));
    await expect(app.ready()).rejects.toThrow('GET /api/unplaced');
    await app.close().catch(() => undefined);
  });
});
