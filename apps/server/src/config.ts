import path from 'node:path';
import { z } from 'zod';
import { LIMITS, newPassword, SCHEME_DEFAULTS, type Branding } from '@kanak/contract';

/** Turns an empty environment value into "unset", so `FOO=` behaves like no FOO at all. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** A provider's base address: http(s), kept without a trailing slash. */
const baseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
  .transform((url) => url.replace(/\/+$/, ''));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Behind a load balancer: trust its X-Forwarded-For ("true", or its addresses, comma-separated). */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | string =>
      value === 'true' ? true : value === 'false' ? false : value,
    ),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL'),
  ),
  /**
   * The same database as DATABASE_URL, reached directly when DATABASE_URL goes through a
   * pooler: each server listens there for ended sessions (a pooler in transaction mode cannot
   * carry LISTEN). Unset: DATABASE_URL, unless DATABASE_PREPARED_STATEMENTS=off says it goes
   * through such a pooler; then every request checks its session in the database.
   */
  DATABASE_DIRECT_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL'),
  ),
  /**
   * A streaming replica of DATABASE_URL for statements, summaries, exports and the owner's
   * reports: their reads leave the primary to the counters' changes.
   */
  REPORTS_DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL'),
  ),
  /** How far behind the primary the replica may be before those reads go to the primary. */
  REPORTS_MAX_LAG_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * `off` when DATABASE_URL goes through a pooler in transaction mode that does not keep
   * prepared statements (PgBouncer before 1.21, or without `max_prepared_statements`).
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  ADMIN_USERNAME: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.usernameMaxLength)
    .regex(/^[A-Za-z0-9._-]+$/, 'may hold only letters, digits, dot, dash and underscore')
    .default('admin'),
  ADMIN_PASSWORD: optional(newPassword),
  JWT_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  DATA_KEY: optional(
    z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)'),
  ),
  STORE_TIMEZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Kolkata')
    .default('Asia/Kolkata'),
  COMPANY_NAME: z.string().default('Kanak Jewellers'),
  COMPANY_TAGLINE: z.string().default('Since 1928'),
  SHOP_ADDRESS: z.string().default('12 Zaveri Bazaar, Mumbai 400002'),
  SHOP_PHONE: z.string().default('+91 22 2342 1928'),
  SUPPORT_PHONE: z.string().default('+91 80 4718 2200'),
  POWERED_BY: z.string().default('Kanak Technologies'),
  INSTALLMENTS: z.coerce.number().int().min(1).max(60).default(SCHEME_DEFAULTS.installments),
  BONUS_PERCENT: z.coerce.number().int().min(0).max(1000).default(SCHEME_DEFAULTS.bonusPercent),
  /** The shop's GSTIN, printed on installment receipts: 15 characters, upper case. */
  COMPANY_GSTIN: optional(
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/, 'must be a 15-character GSTIN'),
  ),
  /**
   * Sign-in attempts one address may make in a minute, right or wrong. A showroom whose
   * counters all reach the server through one address may need more.
   */
  SIGN_IN_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(LIMITS.loginAttemptsPerIpPerMinute),
  /** Seconds a stop waits for running requests before it closes their connections. */
  STOP_TIMEOUT: z.coerce.number().int().min(1).max(600).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: optional(z.string()),
  /** `off`: this process runs no background jobs (another runs `npm run worker`). */
  JOBS: z.enum(['on', 'off']).default('on'),
  /** The daily backup's time of day, store time. */
  BACKUP_AT: z
    .string()
    .regex(
      /^([01]\d|2[0-3]):[0-5]\d$/,
      'must be a time of day as HH:MM on the 24-hour clock, such as 02:30',
    )
    .default('02:30'),
  /** Where backups are written; unset, DATA_DIR/backups. */
  BACKUP_DIR: optional(z.string()),
  /** How many good backups the folder keeps: older ones go once a newer one is good. */
  BACKUP_KEEP: z.coerce
    .number({ error: 'must be a whole number from 1' })
    .int('must be a whole number from 1')
    .min(1, 'must be a whole number from 1')
    .max(10_000, 'must be at most 10000')
    .default(14),
  /**
   * The bearer token a metrics scraper (Prometheus) sends to GET /metrics; unset, there are no
   * metrics (404). A token's characters only, so it goes in a header as it is.
   */
  METRICS_TOKEN: optional(
    z
      .string()
      .regex(
        /^[A-Za-z0-9._~+/=-]{16,200}$/,
        'must be 16 to 200 characters: letters, digits and . _ ~ + / = -',
      ),
  ),
  /** The messaging panels' providers: where notices to customers go, by the saved panel. */
  MESSAGING_PANEL1_URL: optional(baseUrl).default('https://api.ultramsg.com'),
  MESSAGING_PANEL2_URL: optional(baseUrl).default('https://api.green-api.com'),
  /** Panel 3's panels are run by resellers, each at an address of its own: no default. */
  MESSAGING_PANEL3_URL: optional(baseUrl),
  /** TallyPrime's XML server, where the owner's push sends vouchers (http://host:9000). */
  TALLY_URL: optional(baseUrl),
  /** Seconds Tally may take to answer one request of 500 vouchers, answer and all. */
  TALLY_TIMEOUT: z.coerce.number().positive().max(600).default(60),
  /** Razorpay's API, where online installments' orders are made. */
  RAZORPAY_URL: optional(baseUrl).default('https://api.razorpay.com'),
  /** Seconds Razorpay may take to answer one call, answer and all. */
  RAZORPAY_TIMEOUT: z.coerce.number().positive().max(120).default(10),
  /** The key id and secret from Razorpay's dashboard; unset, online payment is off. */
  RAZORPAY_KEY_ID: optional(z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be a Razorpay key id')),
  RAZORPAY_KEY_SECRET: optional(z.string().min(8).max(200)),
  /** The secret typed when the webhook was added in Razorpay's dashboard. */
  RAZORPAY_WEBHOOK_SECRET: optional(z.string().min(8).max(200)),
  /** Razorpay's Standard Checkout script, which the customer's portal loads to take a payment. */
  RAZORPAY_CHECKOUT_URL: optional(
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }),
  ).default('https://checkout.razorpay.com/v1/checkout.js'),
  /** Messages a second the sender may hand to the provider (fractions allowed: 0.5). */
  MESSAGING_RATE: z.coerce.number().positive().max(10_000).default(1),
  /** Meta's Graph API, which the official panel (Panel 4) calls; tests point it at a fake. */
  WHATSAPP_GRAPH_URL: optional(baseUrl).default('https://graph.facebook.com'),
  /** The Graph API's version the calls name (Meta keeps each about two years). */
  WHATSAPP_GRAPH_VERSION: z
    .string()
    .regex(/^v\d{1,3}\.\d{1,3}$/, 'must be a Graph API version such as v25.0')
    .default('v25.0'),
  /** Messages a second the official panel may send (Meta's own cap is 80 a number). */
  WHATSAPP_RATE: z.coerce.number().positive().max(1000).default(20),
  /** Seconds Meta may take to answer one call, answer and all. */
  WHATSAPP_TIMEOUT: z.coerce.number().positive().max(120).default(15),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  trustProxy: boolean | string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Where this server listens for ended sessions, when DATABASE_URL goes through a pooler. */
  databaseDirectUrl: string | undefined;
  /** The replica that statements, summaries and exports read, when there is one. */
  reports: { databaseUrl: string | undefined; maxLagSeconds: number };
  /** Name the statements run on every request, so each connection plans them once. */
  preparedStatements: boolean;
  adminUsername: string;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  dataKey: string | undefined;
  storeTimezone: string;
  branding: Branding;
  schemeTerms: { installments: number; bonusPercent: number };
  /** The shop's GSTIN for receipts; undefined when not set. */
  gstin: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  stopTimeoutSeconds: number;
  webDist: string | undefined;
  /** Run the background jobs (points expiry, notices to customers) in this process. */
  jobs: boolean;
  /** The daily backup: when (HH:MM store time), where (an absolute path), how many kept. */
  backups: { at: string; dir: string; keep: number };
  /** The bearer token GET /metrics asks for; undefined: no metrics are served. */
  metricsToken: string | undefined;
  /** Sign-in attempts one address may make in a minute. */
  signInLimitPerMinute: number;
  messaging: MessagingConfig;
  /** WhatsApp's own Cloud API, for the official panel (Panel 4). */
  whatsapp: WhatsAppConfig;
  /** TallyPrime's XML server; unset, pushing to Tally is refused with a message saying so. */
  tallyUrl: string | undefined;
  /** How long Tally may take to answer one request, answer and all. */
  tallyTimeoutMs: number;
  /** The payment gateway of online installments; keys unset, online payment is refused. */
  razorpay: {
    url: string;
    keyId: string | undefined;
    keySecret: string | undefined;
    webhookSecret: string | undefined;
    /** The checkout script's address; the portal's pages may load it and show its frames. */
    checkoutUrl: string;
    /** How long one call may take, answer and all. */
    timeoutMs: number;
  };
}

/** Where and how fast notices to customers are sent. */
export interface MessagingConfig {
  /** Each panel's provider address; panel 3 has none until MESSAGING_PANEL3_URL is set. */
  panelUrls: Record<1 | 2 | 3, string | undefined>;
  /** Messages a second, at most. */
  rate: number;
}

/** Where the official panel's calls go, and how fast. */
export interface WhatsAppConfig {
  /** Meta's Graph API, without a trailing slash. */
  graphUrl: string;
  /** `v25.0`: the version each call names. */
  graphVersion: string;
  /** Messages a second, at most. */
  rate: number;
  /** How long one call may take, answer and all. */
  timeoutMs: number;
}

export class ConfigError extends Error {}

/** Reads and checks the environment; a bad value stops the start with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    reports: { databaseUrl: e.REPORTS_DATABASE_URL, maxLagSeconds: e.REPORTS_MAX_LAG_SECONDS },
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'on',
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    dataKey: e.DATA_KEY,
    storeTimezone: e.STORE_TIMEZONE,
    branding: {
      companyName: e.COMPANY_NAME,
      companyTagline: e.COMPANY_TAGLINE,
      shopAddress: e.SHOP_ADDRESS,
      shopPhone: e.SHOP_PHONE,
      supportPhone: e.SUPPORT_PHONE,
      poweredBy: e.POWERED_BY,
      storeTimezone: e.STORE_TIMEZONE,
    },
    schemeTerms: { installments: e.INSTALLMENTS, bonusPercent: e.BONUS_PERCENT },
    gstin: e.COMPANY_GSTIN,
    logLevel: e.LOG_LEVEL,
    stopTimeoutSeconds: e.STOP_TIMEOUT,
    webDist: e.WEB_DIST,
    jobs: e.JOBS === 'on',
    backups: {
      at: e.BACKUP_AT,
      dir: path.resolve(e.BACKUP_DIR ?? path.join(e.DATA_DIR, 'backups')),
      keep: e.BACKUP_KEEP,
    },
    metricsToken: e.METRICS_TOKEN,
    signInLimitPerMinute: e.SIGN_IN_LIMIT_PER_MINUTE,
    messaging: {
      panelUrls: {
        1: e.MESSAGING_PANEL1_URL,
        2: e.MESSAGING_PANEL2_URL,
        3: e.MESSAGING_PANEL3_URL,
      },
      rate: e.MESSAGING_RATE,
    },
    whatsapp: {
      graphUrl: e.WHATSAPP_GRAPH_URL,
      graphVersion: e.WHATSAPP_GRAPH_VERSION,
      rate: e.WHATSAPP_RATE,
      timeoutMs: e.WHATSAPP_TIMEOUT * 1000,
    },
    tallyUrl: e.TALLY_URL,
    tallyTimeoutMs: e.TALLY_TIMEOUT * 1000,
    razorpay: {
      url: e.RAZORPAY_URL,
      keyId: e.RAZORPAY_KEY_ID,
      keySecret: e.RAZORPAY_KEY_SECRET,
      webhookSecret: e.RAZORPAY_WEBHOOK_SECRET,
      checkoutUrl: e.RAZORPAY_CHECKOUT_URL,
      timeoutMs: e.RAZORPAY_TIMEOUT * 1000,
    },
  };
}
