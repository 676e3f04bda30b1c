import { validate, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  INDIAN_MOBILE_PATTERN,
  LIMITS,
  MACHINE_PATHS,
  MEMBER_API_PATHS,
  MEMBER_PATHS,
  MESSAGES,
} from '@kanak/contract';
import { APP_VERSION } from '../../lib/version.js';
import { addUser, createTestContext, login, type TestContext } from '../../../test/helpers.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  maxLength?: number;
  pattern?: string;
  allOf?: JsonSchema[];
  format?: string;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }>;
  };
}

let ctx: TestContext;
let doc: OpenApiDocument;

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx, 'meera', 'Meera@1928');
  doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
});
afterAll(async () => {
  await ctx?.close();
});

/** The API routes the docs describe: all but the docs' own. */
const apiRoutes = () =>
  ctx.app.registeredRoutes.filter(
    (route) =>
      route.url.startsWith('/api/') &&
      route.url !== '/api/openapi.json' &&
      !route.url.startsWith('/api/docs'),
  );
const operationOf = (route: { method: string; url: string }) =>
  doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
const bodySchema = (path: string) =>
  doc.paths[path]!.post!.requestBody!.content['application/json']!.schema;

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a token', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info).toMatchObject({ title: 'Kanak API', version: APP_VERSION });
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every API route with its method, tag and summary, and nothing outside /api', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(25);
    const tags = doc.tags.map((tag) => tag.name);
    for (const route of routes) {
      const operation = operationOf(route);
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(tags).toContain(operation!.tags?.[0]);
      expect(operation!.summary).toBeTruthy();
    }
    const documented = Object.values(doc.paths).flatMap((methods) => Object.keys(methods));
    expect(documented).toHaveLength(routes.length);
    expect(Object.keys(doc.paths).every((path) => path.startsWith('/api/'))).toBe(true);
  });

  it('documents the real answer of every call: each route declares its 200 response schema', () => {
    const undeclared = apiRoutes()
      .filter((route) => !(route.schema?.response as Record<number, unknown> | undefined)?.[200])
      // Answer an image's bytes, a CSV file or a backup file, described by hand in the docs.
      .filter(
        (route) =>
          ![
            '/api/app/images/:id',
            '/api/customers/export-download',
            '/api/backups/download',
            '/api/app/logo',
          ].includes(route.url),
      )
      .map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
    const statement = doc.paths['/api/customers/generate-statement']!.post! as Operation & {
      responses: Record<string, { content: Record<string, { schema: JsonSchema }> }>;
    };
    const answer = statement.responses['200']!.content['application/json']!.schema;
    const row = answer.properties!.data as JsonSchema & { items: JsonSchema };
    expect(row.items.required).toEqual(expect.arrayContaining(['MRN', 'INVDATE', 'RCREDIT']));
  });

  it("carries the contract's limits in the request schemas", () => {
    const loginBody = bodySchema('/api/login/verify');
    expect(loginBody.required).toEqual(['USERNAME', 'PASSWORD']);
    expect(loginBody.properties!.USERNAME!.maxLength).toBe(LIMITS.usernameMaxLength);

    const customer = bodySchema('/api/customers/update-customer-data').properties!.formData!;
    expect(customer.required).toEqual(expect.arrayContaining(['mobileno', 'custname']));
    expect(customer.properties!.custname!.maxLength).toBe(LIMITS.customerNameMaxLength);
    // Two rules, two messages: 10 digits, then an Indian mobile's first digit.
    expect(customer.properties!.mobileno!.allOf).toEqual([
      { pattern: `^\\d{${LIMITS.mobileLength}}$` },
      { pattern: INDIAN_MOBILE_PATTERN.source },
    ]);

    const upload = doc.paths['/api/file/upload']!.post!.requestBody!.content;
    expect(Object.keys(upload)).toEqual(['multipart/form-data']);
    expect(upload['multipart/form-data']!.schema.properties!.file!.format).toBe('binary');
  });

  it('names every operation: its name in the contract, each method of a shared path its own', () => {
    const names = new Set(Object.keys({ ...API_PATHS, ...MEMBER_API_PATHS }));
    const ids = apiRoutes().map((route) => operationOf(route)!.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Only the POSTs of a path whose one name is its GET's are named otherwise.
    expect(ids.filter((id) => !names.has(id!)).sort()).toEqual([
      'createApiKey',
      'saveAccountingSettings',
      'saveNoticeTemplate',
      'savePointsRules',
      'saveTiers',
      'whatsappWebhookEvent',
    ]);
    expect(doc.paths['/api/branches']!.get!.operationId).toBe('branches');
    expect(doc.paths['/api/branches']!.post!.operationId).toBe('saveBranch');
    expect(doc.paths['/api/settings/api-keys']!.get!.operationId).toBe('apiKeys');
    expect(doc.paths['/api/member/me']!.get!.operationId).toBe('memberMe');
  });

  it('asks for the bearer token on every private route, a member token on the member calls, an API key on the POS calls, and nothing on public ones', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.components.securitySchemes.memberAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
    const machine = new Set(MACHINE_PATHS.map((name) => `/api${API_PATHS[name]}`));
    const member = new Set(MEMBER_PATHS.map((name) => `/api${MEMBER_API_PATHS[name]}`));
    for (const route of apiRoutes()) {
      const security = operationOf(route)!.security;
      // Said as none, not left out: a client may then call it without a token.
      if (route.public) expect(security, `${route.method} ${route.url}`).toEqual([]);
      else if (machine.has(route.url))
        expect(security, `${route.method} ${route.url}`).toEqual([{ apiKey: [] }]);
      else if (member.has(route.url))
        expect(security, `${route.method} ${route.url}`).toEqual([{ memberAuth: [] }]);
      else expect(security, `${route.method} ${route.url}`).toEqual([{ bearerAuth: [] }]);
    }
    expect(machine.size).toBe(5);
    expect(member.size).toBe(8);
    const publicOnes = apiRoutes()
      .filter((route) => route.public)
      .map((route) => `${route.method} ${route.url}`);
    expect(publicOnes.sort()).toEqual(
      [
        'GET /api/app/branding',
        'GET /api/app/content',
        'GET /api/app/images/:id',
        'GET /api/app/logo',
        'GET /api/backups/download',
        'GET /api/customers/export-download',
        'GET /api/health',
        'GET /api/ready',
        'POST /api/login/verify',
        'POST /api/member/otp',
        'POST /api/member/verify',
        'POST /api/payments/razorpay/webhook',
        'GET /api/whatsapp/webhook',
        'POST /api/whatsapp/webhook',
      ].sort(),
    );
  });

  it('asks for an Idempotency-Key on exactly the calls that change data', () => {
    const needsKey = (operation: Operation) =>
      operation.parameters?.some(
        (p) => p.in === 'header' && p.name === 'idempotency-key' && p.required,
      ) === true;
    const withKey = apiRoutes().filter((route) => needsKey(operationOf(route)!));
    expect(withKey.map((route) => route.url)).toContain('/api/customers/update-points');
    expect(withKey.map((route) => route.url)).not.toContain('/api/customers/generate-statement');
    expect(withKey.length).toBeGreaterThan(10);
  });
});

describe('GET /api/docs', () => {
  it('serves Swagger UI without a token, every asset from this server', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Kanak API</title>');
    // A shop's LAN may have no internet: nothing may come from elsewhere.
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);

    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(
      expect.arrayContaining([
        '/api/docs/static/swagger-ui.css',
        '/api/docs/static/swagger-ui-bundle.js',
        '/api/docs/static/swagger-initializer.js',
      ]),
    );
    for (const asset of assets) {
      const response = await ctx.app.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
      const type = asset.endsWith('.js')
        ? /javascript/
        : asset.endsWith('.css')
          ? /^text\/css/
          : /^image\//;
      expect(response.headers['content-type'], asset).toMatch(type);
    }
    // Swagger UI loads the document from beside itself: that must be public too.
    const json = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual(doc);
  });

  it("is served under the app's own strict Content-Security-Policy", async () => {
    const csp = async (url: string) =>
      (await ctx.app.inject({ method: 'GET', url })).headers['content-security-policy'];
    const docsPolicy = await csp('/api/docs');
    expect(docsPolicy).toBe(await csp('/api/health'));
    expect(docsPolicy).toContain("script-src 'self'");
    expect(docsPolicy).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('leaves the calls it describes behind the token', async () => {
    const url = '/api/customers/get-all-customers?search=98';
    const without = await ctx.app.inject({ method: 'GET', url });
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
    const token = await login(ctx, 'meera', 'Meera@1928');
    const withToken = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.statusCode).toBe(200);
  });
});
