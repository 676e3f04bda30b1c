import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IDEMPOTENCY_KEY_PATTERN,
  API_PATHS,
  API_PREFIX,
  auditCsvResponse,
  auditResponse,
  collectionsReportResponse,
  maturingReportResponse,
  overdueReportResponse,
  pointsLiabilityReportResponse,
  reportCsvResponse,
  unrecoveredReportResponse,
  importFields,
  importProblemsCsvResponse,
  importResponse,
  uploadFileFields,
  MEMBER_API_PATHS,
  MEMBER_PATHS,
  MACHINE_PATHS,
} from '@kanak/contract';
import { APP_VERSION } from '../../lib/version.js';

/** Public, like the API's own description: the calls it describes still need a token. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = `${API_PREFIX}/docs`;

const TAGS = {
  system:
    'Health and readiness checks for load balancers, and the branding the login screen shows.',
  import: 'Switching from other software: customers, opening points and running schemes (owner).',
  auth: 'Sign-in: a bearer token for every other call; sign-out ends it.',
  users: 'My Profile: the signed-in staff member.',
  staff: "Staff accounts, their roles and branches (owners; managers for their branch's cashiers).",
  goldRates: "The day's gold rate, 22K and 24K in rupees per gram, and its history.",
  branches: "The shop's branches: receipt numbering and the address on printouts (owner).",
  customers: 'Customer profiles, search and export.',
  points: 'The loyalty-points ledger.',
  schemes: 'Monthly gold-savings schemes, installments and receipts.',
  content: "The companion mobile app's banners and e-catalogue images.",
  messaging:
    "The messaging panel settings and its test message; the official panel's templates and " +
    "Meta's webhook.",
  notices:
    'WhatsApp notices to customers: the message templates (owner) and the delivery log ' +
    '(owners, managers).',
  audit: 'The audit trail: every change, who made it, before and after (owners, managers).',
  reports:
    "The owner's view: the dashboard and the reports behind it (owners for any branch or the " +
    'whole chain; managers for their own branch).',
  settings:
    "The owner's settings: the shop's name, GSTIN, phones and logo, points rules and the " +
    "counters' API keys.",
  accounting:
    "The accountant's hand-off to TallyPrime (owner): ledger names, the import file, the push.",
  backups: 'The daily backups of the whole database, "Back up now" and their download (owner).',
  members:
    "The customer's own calls (the companion app and the portal), with a member token from " +
    'a one-time code: their points, schemes, consents and data, and paying an installment ' +
    'online. Staff tokens and API keys are refused here, and member tokens everywhere else.',
  pos:
    "For the counters' billing systems (POS), with `X-Api-Key`: sales, returns and " +
    'redemptions earn and spend points; each document is idempotent by its own number.',
} as const;

interface Operation {
  tag: keyof typeof TAGS;
  summary: string;
  /** Where two names share one path (a list and its save): the method this name stands for. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /**
   * Where one name stands for both a GET and a POST: the POST's own operationId and summary
   * (the name and the summary above are the GET's), so that every operation has its own.
   */
  post?: { operationId: string; summary: string };
  /** A multipart form instead of JSON: its fields as the docs should show them. */
  form?: z.ZodObject;
  /** What a 200 carries when it is not the JSON envelope. */
  ok?: { description: string; content: Record<string, { schema: z.ZodType }> };
}

/** A report's answer: a page of JSON, or with format "csv" the whole report as a file. */
function reportAnswer(json: z.ZodType): Operation['ok'] {
  return {
    description:
      'JSON `{ data, total, totals }`, or with `format: "csv"` the whole report as a CSV file ' +
      'download (UTF-8 with a byte-order mark).',
    content: { 'application/json': { schema: json }, 'text/csv': { schema: reportCsvResponse } },
  };
}

/** An import's answer: the report, or with ?format=csv on a check every problem as a file. */
const importAnswer: Operation['ok'] = {
  description:
    'JSON `{ data }` (the first problems listed, `errorCount` all of them), or with ' +
    '?format=csv on a check (dryRun) every problem as a CSV file download (UTF-8 with a ' +
    'byte-order mark).',
  content: {
    'application/json': { schema: importResponse },
    'text/csv': { schema: importProblemsCsvResponse },
  },
};

/** Every path of the contract, so a new path cannot reach the docs without a tag. */
const OPERATIONS: Record<keyof typeof API_PATHS | keyof typeof MEMBER_API_PATHS, Operation> = {
  health: { tag: 'system', summary: 'Is the server up and its database reachable' },
  ready: {
    tag: 'system',
    summary:
      'Should this instance get traffic: its database answers and has every migration, and it ' +
      'is not stopping (503 with the reason otherwise)',
  },
  memberOtp: { tag: 'members', summary: 'Send a sign-in code to a customer’s mobile number' },
  memberVerify: { tag: 'members', summary: 'Sign in with the code; answers a member token' },
  memberLogout: { tag: 'members', summary: 'Sign out: this member token stops working' },
  memberMe: { tag: 'members', summary: 'The customer’s points, lots, schemes and consents' },
  memberPoints: { tag: 'members', summary: 'The customer’s points history, newest first' },
  memberScheme: { tag: 'members', summary: 'A scheme’s passbook: every installment paid' },
  memberConsent: { tag: 'members', summary: 'Give or withdraw consent for a purpose' },
  memberDataExport: { tag: 'members', summary: 'Everything held about the customer' },
  memberPay: { tag: 'members', summary: 'A Razorpay order for the next installment due' },
  memberPaymentVerify: {
    tag: 'members',
    summary: 'Record a checkout’s payment once its signature checks out',
  },
  razorpayWebhook: {
    tag: 'members',
    summary: 'Razorpay’s webhook, signed over the raw body with the webhook secret',
  },
  whatsappWebhook: {
    tag: 'messaging',
    summary: 'Meta’s webhook handshake: the challenge back when the verify token matches',
    post: {
      operationId: 'whatsappWebhookEvent',
      summary: 'Meta’s webhook events, signed over the raw body with the app secret',
    },
  },
  whatsappTemplates: {
    tag: 'messaging',
    summary: 'The official panel’s message templates, as the last sync read them',
  },
  whatsappTemplatesSync: {
    tag: 'messaging',
    summary: 'Read the official panel’s templates from Meta again, replacing those held',
  },
  branding: { tag: 'system', summary: 'Company name, address and scheme terms' },
  login: { tag: 'auth', summary: 'Sign in; answers a bearer token' },
  logout: { tag: 'auth', summary: 'Sign out: this token stops working at once' },
  me: { tag: 'users', summary: 'Who is signed in: name, role and branch' },
  staff: { tag: 'staff', summary: 'The staff accounts this user manages' },
  staffAdd: { tag: 'staff', summary: 'Add an account; answers its temporary password once' },
  staffUpdate: { tag: 'staff', summary: "Change an account's name, role or branch" },
  staffDisable: { tag: 'staff', summary: 'Disable an account; its sessions end' },
  staffEnable: { tag: 'staff', summary: 'Enable a disabled account' },
  staffResetPassword: { tag: 'staff', summary: 'A new temporary password; sessions end' },
  updateCurrentUser: { tag: 'users', summary: 'Change my password' },
  branches: { tag: 'branches', summary: 'The branches', method: 'GET' },
  saveBranch: { tag: 'branches', summary: 'Add or update a branch by its code', method: 'POST' },
  goldRates: {
    tag: 'goldRates',
    summary: 'The rates of a range of days, newest first',
    method: 'GET',
  },
  saveGoldRate: {
    tag: 'goldRates',
    summary: "Enter or correct a day's rate (managers)",
    method: 'POST',
  },
  goldRateToday: { tag: 'goldRates', summary: "Today's gold rate, or null when not entered yet" },
  schemePlans: { tag: 'schemes', summary: 'The scheme plans, value or weight', method: 'GET' },
  saveSchemePlan: {
    tag: 'schemes',
    summary: 'Add or change a scheme plan (owner; a plan in use keeps its terms)',
    method: 'POST',
  },
  audit: {
    tag: 'audit',
    summary: 'Every change: who, when, what, before and after; filtered and paged',
    ok: {
      description: 'JSON `{ data, total, totalCapped }`, or with ?format=csv a CSV file download.',
      content: {
        'application/json': { schema: auditResponse },
        'text/csv': { schema: auditCsvResponse },
      },
    },
  },
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
  customerConsent: {
    tag: 'customers',
    summary: "Record a grant or withdrawal of a customer's consent for one purpose",
  },
  customerDataExport: {
    tag: 'customers',
    summary: 'Everything held about one customer (profile, consents, ledger, schemes), as JSON',
  },
  eraseCustomer: {
    tag: 'customers',
    summary: "Erase a customer's personal data; the ledger and schemes stay (owner)",
  },
  updatePoints: { tag: 'points', summary: 'Credit or deduct loyalty points' },
  redeemTerms: { tag: 'points', summary: "A customer's balance and the minimum to redeem" },
  redeemPoints: { tag: 'points', summary: "Redeem a customer's points at the counter" },
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
  closeSchemePreview: { tag: 'schemes', summary: 'What closing a scheme would pay today' },
  schemeStatement: { tag: 'schemes', summary: "A scheme's installments" },
  schemeSummary: {
    tag: 'schemes',
    summary: 'Schemes started in a period: every one, or a page with the count and amount of all',
  },
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
  testMessage: {
    tag: 'messaging',
    summary:
      "Send one WhatsApp message to the saved Phone now; answers the provider's status and words",
  },
  noticeTemplates: {
    tag: 'notices',
    summary: "Every event's template",
    post: { operationId: 'saveNoticeTemplate', summary: "Save one event's switch and text" },
  },
  notices: {
    tag: 'notices',
    summary: 'The delivery log: every notice, its text and how it went; filtered, 50 a page',
  },
  noticeResend: { tag: 'notices', summary: 'Queue a failed notice again, from its first attempt' },
  tiers: {
    tag: 'settings',
    summary: 'The tiers by 12-month spend, and how they fall (owner)',
    post: { operationId: 'saveTiers', summary: 'Set the tiers and how they fall (owner)' },
  },
  customerTier: { tag: 'customers', summary: "Set a customer's tier by hand until a date (owner)" },
  pointsRules: {
    tag: 'settings',
    summary: 'The points rules in force and their history',
    post: { operationId: 'savePointsRules', summary: 'New points rules, from now on' },
  },
  apiKeys: {
    tag: 'settings',
    summary: 'The API keys',
    post: {
      operationId: 'createApiKey',
      summary: 'Make an API key; answers the key, shown only this once',
    },
  },
  apiKeyRevoke: { tag: 'settings', summary: 'Revoke an API key: it stops working at once' },
  accountingSettings: {
    tag: 'accounting',
    summary: 'The Tally company and ledger names',
    post: {
      operationId: 'saveAccountingSettings',
      summary: 'Save the Tally company and ledger names',
    },
  },
  tallyExport: {
    tag: 'accounting',
    summary: 'The vouchers of a date range as one Tally XML import file',
    ok: {
      description:
        'A Tally XML import file download: a Receipt per installment, a Journal per scheme ' +
        "closing's bonus and per month's change in the points liability.",
      content: { 'application/xml': { schema: z.string() } },
    },
  },
  tallyPush: {
    tag: 'accounting',
    summary: "Send the same vouchers to Tally's XML server; answers Tally's import result",
  },
  posSales: {
    tag: 'pos',
    summary:
      'Post an invoice: earns floor(eligible amount / rupees per point) points (TS S); ' +
      'enrols an unknown mobile; the same invoice again gets the same answer, other contents 409',
  },
  posReturns: {
    tag: 'pos',
    summary:
      'Post a return: takes back its points pro rata (TS X), never more than the invoice ' +
      'earned; what the balance cannot cover is answered as unrecovered',
  },
  posRedemptions: {
    tag: 'pos',
    summary: 'Redeem points against an invoice (TS R); answers their value in rupees',
  },
  posRedemptionCancel: {
    tag: 'pos',
    summary: "Cancel an invoice's redemption: the points go back",
  },
  posCustomer: {
    tag: 'pos',
    summary: 'A customer at the counter: balance, its value and the points expiring in 30 days',
  },
  dashboard: {
    tag: 'reports',
    summary:
      "Today's and this month's collections and points issued against last month, points " +
      'outstanding, schemes active, maturing and overdue, 12-month charts (?branch=)',
  },
  collectionsReport: {
    tag: 'reports',
    summary:
      'The cash book of the days from–to: every installment and redemption, with totals by mode; ' +
      'by: "entered" lists the installments entered on those days, whatever their date',
    ok: reportAnswer(collectionsReportResponse),
  },
  overdueReport: {
    tag: 'reports',
    summary: 'Active schemes with installments unpaid 7 days after due, on asOf; oldest first',
    ok: reportAnswer(overdueReportResponse),
  },
  maturingReport: {
    tag: 'reports',
    summary: 'Active schemes maturing from–to (default the next 30 days), soonest first',
    ok: reportAnswer(maturingReportResponse),
  },
  pointsLiabilityReport: {
    tag: 'reports',
    summary:
      'Customers holding points, the most first: value at the rules in force, expiring in 30 days',
    ok: reportAnswer(pointsLiabilityReportResponse),
  },
  unrecoveredReport: {
    tag: 'reports',
    summary: 'Returns whose points could not be taken back, newest first, with their totals',
    ok: reportAnswer(unrecoveredReportResponse),
  },
  myDay: {
    tag: 'reports',
    summary: "The signed-in staff member's own installments taken today, with their receipts",
  },
  counterCustomer: {
    tag: 'customers',
    summary:
      'The customer at the counter: points, those expiring soon, running schemes and what is due',
  },
  importCustomers: {
    tag: 'import',
    summary:
      'Import customers and their opening points from a CSV or Excel file (dryRun: check only)',
    form: importFields.extend({
      file: z.string().meta({ format: 'binary', description: 'CSV or Excel workbook (.xlsx)' }),
    }),
    ok: importAnswer,
  },
  importSchemes: {
    tag: 'import',
    summary: 'Import running schemes and the installments already paid (dryRun: check only)',
    form: importFields.extend({
      file: z.string().meta({ format: 'binary', description: 'CSV or Excel workbook (.xlsx)' }),
    }),
    ok: importAnswer,
  },
  importProgress: {
    tag: 'import',
    summary: "How far the caller's import being written has got (key: its Idempotency-Key)",
  },
  onlineRefunds: {
    tag: 'schemes',
    summary: 'Payments made online that bought no installment: for staff to refund',
  },
  markOnlineRefund: {
    tag: 'schemes',
    summary: 'Note a payment refunded at the gateway, with its refund id',
  },
  backups: {
    tag: 'backups',
    summary: 'The backups made and tried, newest first, and the schedule',
    method: 'GET',
  },
  backupNow: {
    tag: 'backups',
    summary: 'Back up now: answers once the backup has begun (409 while one runs)',
    method: 'POST',
  },
  backupTicket: {
    tag: 'backups',
    summary: 'A single-use link (60 s) to download one good backup without a token',
  },
  backupDownload: {
    tag: 'backups',
    summary: 'The backup file, for the ticket of backups/ticket (once)',
    ok: {
      description: 'The gzip backup file as a download.',
      content: { 'application/gzip': { schema: z.string() } },
    },
  },
  shopSettings: {
    tag: 'settings',
    summary: "The shop's name, tagline, GSTIN, phones and logo (owner)",
    method: 'GET',
  },
  saveShopSettings: {
    tag: 'settings',
    summary:
      "Save the shop's name, tagline, GSTIN and phones; every instance shows them within 5 s",
    method: 'PUT',
  },
  uploadShopLogo: {
    tag: 'settings',
    summary: "Upload the shop's logo: a PNG or JPEG of at most 256 KB",
    method: 'POST',
    form: z.object({
      file: z.string().meta({ format: 'binary', description: 'PNG or JPEG, at most 256 KB' }),
    }),
  },
  removeShopLogo: { tag: 'settings', summary: "Remove the shop's logo", method: 'DELETE' },
  shopLogo: {
    tag: 'system',
    summary: "The shop's logo (404 when it has none)",
    ok: {
      description: 'The logo, PNG or JPEG; ETag is its SHA-256.',
      content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } },
    },
  },
};

interface DescribedOperation extends Omit<Operation, 'method' | 'post'> {
  operationId: string;
}

/**
 * Each operation by `METHOD url` (`* url` for a name that stands for its path's every method),
 * with its operationId: the name of its path in the contract, or the name given for its POST.
 * Clients generated from the document name their functions so: they stay while the contract's
 * names do.
 */
const OPERATION_OF_ROUTE = new Map(
  Object.entries({ ...API_PATHS, ...MEMBER_API_PATHS }).flatMap(
    ([name, path]): [string, DescribedOperation][] => {
      const { method, post, ...operation } = OPERATIONS[name as keyof typeof OPERATIONS];
      const url = `${API_PREFIX}${path}`;
      const described = { ...operation, operationId: name };
      if (method) return [[`${method} ${url}`, described]];
      if (!post) return [[`* ${url}`, described]];
      return [
        [`GET ${url}`, described],
        [`POST ${url}`, { ...described, ...post }],
      ];
    },
  ),
);
const operationOf = (method: unknown, url: string) =>
  OPERATION_OF_ROUTE.get(`${String(method)} ${url}`) ?? OPERATION_OF_ROUTE.get(`* ${url}`);

const MACHINE_ROUTES = new Set(MACHINE_PATHS.map((name) => `${API_PREFIX}${API_PATHS[name]}`));
const MEMBER_ROUTES = new Set(MEMBER_PATHS.map((name) => `${API_PREFIX}${MEMBER_API_PATHS[name]}`));

/** Who may call a route: nobody in particular (public), a counter's key, a customer, staff. */
function securityOf(url: string, isPublic: boolean | undefined) {
  if (isPublic) return [];
  if (MACHINE_ROUTES.has(url)) return [{ apiKey: [] }];
  if (MEMBER_ROUTES.has(url)) return [{ memberAuth: [] }];
  return [{ bearerAuth: [] }];
}

const refused = z
  .looseObject({
    success: z.literal(false),
    message: z.string().describe('Says what to fix, in words for shop staff.'),
    code: z
      .string()
      .optional()
      .describe(
        'Present on refusals a screen answers by itself, e.g. GOLD_RATE_UNUSUAL: send the same ' +
          'request again with `confirmed: true` once staff confirm.',
      ),
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
 * say only in their config: operationId, tag and summary, the token or key they need (none when
 * public, said as `security: []`), Idempotency-Key on changes. Everything outside /api (the web
 * app's files) stays out.
 */
const transform: SwaggerTransform = (input) => {
  if (!input.url.startsWith(`${API_PREFIX}/`)) return { url: input.url, schema: { hide: true } };
  const operation = operationOf(input.route.method, input.url);
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
      ...(operation
        ? {
            operationId: operation.operationId,
            tags: [operation.tag],
            summary: operation.summary,
          }
        : {}),
      security: securityOf(input.url, config?.public),
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
          "The staff back-office API, with the customers' own calls (`/api/member`) and the " +
          "counters' (`/api/pos`). Every response is JSON `{ success, message?, data? }`. " +
          'Staff sign in with `POST /api/login/verify`, then send ' +
          '`Authorization: Bearer <accessToken>`; customers sign in with a one-time code ' +
          '(`POST /api/member/otp`, then `/api/member/verify`) and send their member token the ' +
          'same way; a counter sends its `X-Api-Key`.',
      },
      // Relative: each shop serves this document from its own host, the calls from the same one.
      servers: [{ url: '/', description: 'The Kanak server that serves this document' }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: "A staff member's token, from `POST /api/login/verify`.",
          },
          memberAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              "A customer's member token, from `POST /api/member/verify`: the /api/member calls only.",
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: "A counter's API key (Settings, API keys): the /api/pos calls only.",
          },
        },
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
