import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_PATHS, API_PREFIX, uploadFileFields } from '@kanak/contract';
import { KEY_PATTERN as IDEMPOTENCY_KEY_PATTERN } from '../../plugins/idempotency.js';
import { APP_VERSION } from '../../lib/version.js';

/** Public, like the API's own description: the calls it describes still need a token. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = `${API_PREFIX}/docs`;

const TAGS = {
  system: 'Health check for load balancers, and the branding the login screen shows.',
  auth: 'Sign-in: a bearer token for every other call; sign-out ends it.',
  users: 'My Profile: the signed-in staff member.',
  staff: 'Staff accounts and their roles (owners; managers for cashiers).',
  customers: 'Customer profiles, search and export.',
  points: 'The loyalty-points ledger.',
  schemes: 'Monthly gold-savings schemes, installments and receipts.',
  content: "The companion mobile app's banners and e-catalogue images.",
  messaging: 'The messaging panel settings.',
} as const;

interface Operation {
  tag: keyof typeof TAGS;
  summary: string;
  /** A multipart form instead of JSON: its fields as the docs should show them. */
  form?: z.ZodObject;
  /** What a 200 carries when it is not the JSON envelope. */
  ok?: { description: string; content: Record<string, { schema: z.ZodType }> };
}

/** Every path of the contract, so a new path cannot reach the docs without a tag. */
const OPERATIONS: Record<keyof typeof API_PATHS, Operation> = {
  health: { tag: 'system', summary: 'Is the server up and its database reachable' },
  branding: { tag: 'system', summary: 'Company name, address and scheme terms' },
  login: { tag: 'auth', summary: 'Sign in; answers a bearer token' },
  logout: { tag: 'auth', summary: 'Sign out: this token stops working at once' },
  me: { tag: 'users', summary: 'Who is signed in: name, role and branch' },
  staff: { tag: 'staff', summary: 'The staff accounts this user manages' },
  staffAdd: { tag: 'staff', summary: 'Add an account; answers its temporary password once' },
  staffUpdate: { tag: 'staff', summary: "Change an account's name or role" },
  staffDisable: { tag: 'staff', summary: 'Disable an account; its sessions end' },
  staffEnable: { tag: 'staff', summary: 'Enable a disabled account' },
  staffResetPassword: { tag: 'staff', summary: 'A new temporary password; sessions end' },
  updateCurrentUser: { tag: 'users', summary: 'Change my password' },
  searchCustomers: { tag: 'customers', summary: 'Find customers by mobile prefix or name' },
  customerData: { tag: 'customers', summary: "One customer's profile by mobile number" },
  saveCustomer: { tag: 'customers', summary: 'Add or update a customer' },
  exportCustomers: {
    tag: 'customers',
    summary: 'Every customer, as JSON or CSV',
    ok: {
      description: 'JSON envelope, or with ?format=csv a CSV file download.',
      content: {
        'application/json': { schema: z.object({ success: z.boolean(), data: z.array(z.any()) }) },
        'text/csv': { schema: z.string() },
      },
    },
  },
  exportTicket: {
    tag: 'customers',
    summary: 'A single-use link (60 s) to download every customer as CSV without a token',
  },
  exportDownload: {
    tag: 'customers',
    summary: 'The customer CSV, for the ticket of export-ticket (once)',
    ok: {
      description: 'A CSV file download (UTF-8 with a byte-order mark).',
      content: { 'text/csv': { schema: z.string() } },
    },
  },
  updatePoints: { tag: 'points', summary: 'Credit or deduct loyalty points' },
  updateStatement: { tag: 'points', summary: 'Correct a manual ledger entry' },
  pointsStatement: { tag: 'points', summary: "A customer's points ledger for a period" },
  financialYear: { tag: 'points', summary: 'The start of the current financial year' },
  schemes: { tag: 'schemes', summary: "A customer's schemes" },
  generateScheme: { tag: 'schemes', summary: 'Start a scheme (Inactive until its first payment)' },
  verifyPan: { tag: 'schemes', summary: "The customer's PAN, before a scheme" },
  updatePan: { tag: 'schemes', summary: "Save the customer's PAN" },
  deleteScheme: { tag: 'schemes', summary: 'Cancel an Inactive scheme' },
  activateScheme: { tag: 'schemes', summary: 'Activate a scheme with its first installment' },
  addInstallment: { tag: 'schemes', summary: 'Record a monthly installment; answers the receipt' },
  closeScheme: { tag: 'schemes', summary: 'Close a scheme with its bonus' },
  schemeStatement: { tag: 'schemes', summary: "A scheme's installments" },
  schemeSummary: { tag: 'schemes', summary: 'Schemes started or paid in a period' },
  uploadFile: {
    tag: 'content',
    summary: 'Upload a banner or catalogue image',
    form: uploadFileFields.extend({
      file: z.string().meta({ format: 'binary', description: 'PNG, JPEG, GIF or WebP' }),
    }),
  },
  getFiles: { tag: 'content', summary: 'List the images of one kind' },
  deleteFile: { tag: 'content', summary: 'Delete an image' },
  content: { tag: 'content', summary: "The mobile app's image URLs, newest first" },
  image: {
    tag: 'content',
    summary: 'One image; never changes under its URL',
    ok: {
      description: 'The image; ETag is its SHA-256, cacheable for a year.',
      content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } },
    },
  },
  panelConfig: { tag: 'messaging', summary: 'The messaging panel settings' },
  panelSetup: { tag: 'messaging', summary: 'Save the messaging panel settings' },
};

const OPERATION_OF_URL = new Map(
  Object.entries(API_PATHS).map(([name, path]) => [
    `${API_PREFIX}${path}`,
    OPERATIONS[name as keyof typeof API_PATHS],
  ]),
);

const refused = z
  .looseObject({
    success: z.literal(false),
    message: z.string().describe('Says what to fix, in words for shop staff.'),
  })
  .describe(
    'Refused, and nothing changed: 400 invalid input, 401 no or expired token, 403 not yours, ' +
      '404 unknown record, 409 a business rule, 413 too large, 415 wrong file type, 429 too many.',
  );
const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN)
    .describe(
      'Made once per user action (a UUID) and sent again with every retry: a repeat gets the ' +
        'first answer back and changes nothing again.',
    ),
});

/**
 * The contract's zod schemas as JSON schema (fastify-type-provider-zod), plus what the routes
 * say only in their config: tag and summary, bearer token unless public, Idempotency-Key on
 * changes. Everything outside /api (the web app's files) stays out.
 */
const transform: SwaggerTransform = (input) => {
  if (!input.url.startsWith(`${API_PREFIX}/`)) return { url: input.url, schema: { hide: true } };
  const operation = OPERATION_OF_URL.get(input.url);
  const config = input.route.config;
  const { url, schema } = jsonSchemaTransform({
    ...input,
    schema: {
      ...input.schema,
      ...(config?.idempotent ? { headers: idempotencyHeader } : {}),
      ...(operation?.form ? { body: operation.form, consumes: ['multipart/form-data'] } : {}),
      // The route's own answer (every route declares one), or for the calls that answer bytes
      // or a file, what those are.
      response: {
        ...(input.schema.response as Record<string, unknown> | undefined),
        ...(operation?.ok ? { 200: operation.ok } : {}),
        '4XX': refused,
      },
    },
  });
  return {
    url,
    schema: {
      ...schema,
      ...(operation ? { tags: [operation.tag], summary: operation.summary } : {}),
      ...(config?.public ? {} : { security: [{ bearerAuth: [] }] }),
    },
  };
};

/**
 * The OpenAPI document of every /api route at `/api/openapi.json`, and Swagger UI at
 * `/api/docs`, its assets served from this server (shops on a LAN have no internet). Both are
 * public: they describe the calls, and the calls still need a token.
 */
export const openApiPlugin = fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kanak API',
        version: APP_VERSION,
        description:
          'The staff back-office API. Every response is JSON `{ success, message?, data? }`. ' +
          'Sign in with `POST /api/login/verify`, then send `Authorization: Bearer <accessToken>`.',
      },
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform,
  });

  await app.register(async (docs) => {
    // Only in this scope: the documents and Swagger UI's own routes and files.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    docs.get(OPENAPI_PATH, { schema: { hide: true } }, () => app.swagger());
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      uiConfig: {
        deepLinking: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
        // API answers carry `Content-Disposition: attachment` (docs/security.md, 14.4.2), which
        // Swagger UI would offer as a file to download; "Try it out" shows the JSON instead.
        // Sent to the browser as source text, so it is plain JavaScript.
        responseInterceptor: (response: { headers?: Record<string, string | undefined> }) => {
          if (
            response.headers &&
            /^application\/json/.test(response.headers['content-type'] ?? '')
          ) {
            delete response.headers['content-disposition'];
          }
          return response;
        },
      },
      // No request to the validator service on the internet.
      validatorUrl: false,
      theme: { title: 'Kanak API' },
    });
  });
});
