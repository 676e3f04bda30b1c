import { todayIn } from '@kanak/contract';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import { createReads, type Reads } from './db/reads.js';
import { createCsvStreams } from './lib/csv-stream.js';
import { createFieldCipher, createKeyedHash, erasedMobileHasher } from './lib/crypto.js';
import { redactingLogger } from './lib/logging.js';
import type { Secrets } from './lib/secrets.js';
import {
  createAccountingService,
  type AccountingService,
} from './modules/accounting/accounting.service.js';
import {
  createGoldRatesService,
  type GoldRatesService,
} from './modules/gold-rates/gold-rates.service.js';
import { createAuditService, type AuditService } from './modules/audit/audit.service.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { createBackupsService, type BackupsService } from './modules/backups/backups.service.js';
import {
  createSettingsService,
  type SettingsService,
} from './modules/settings/settings.service.js';
import { branchesRepo } from './modules/branches/branches.repo.js';
import {
  createBranchesService,
  type BranchesService,
} from './modules/branches/branches.service.js';
import {
  createCustomersExports,
  type CustomersExports,
} from './modules/customers/customers.export.js';
import {
  createExportTickets,
  type ExportTickets,
} from './modules/customers/customers.export-tickets.js';
import { customersRepo } from './modules/customers/customers.repo.js';
import {
  createCustomersService,
  type CustomersService,
} from './modules/customers/customers.service.js';
import {
  createApiKeysService,
  type ApiKeysService,
} from './modules/integrations/api-keys.service.js';
import {
  createDataRightsService,
  type DataRightsService,
} from './modules/data-rights/data-rights.service.js';
import { createContentService, type ContentService } from './modules/content/content.service.js';
import { messagingRepo } from './modules/messaging/messaging.repo.js';
import {
  createMessagingService,
  type MessagingService,
} from './modules/messaging/messaging.service.js';
import { createNoticesOutbox, type NoticesOutbox } from './modules/notices/notices.outbox.js';
import { queueReminders } from './modules/notices/notices.reminders.js';
import { createNoticeSender, type SenderOptions } from './modules/notices/notices.sender.js';
import { noticesRepo } from './modules/notices/notices.repo.js';
import { createNoticesService, type NoticesService } from './modules/notices/notices.service.js';
import { createGraphClient } from './modules/whatsapp/graph.js';
import {
  createWhatsAppService,
  type WhatsAppService,
} from './modules/whatsapp/whatsapp.service.js';
import { pointsRepo } from './modules/points/points.repo.js';
import {
  createPointsRulesService,
  rulesRepo,
  type PointsRulesService,
} from './modules/points/points.rules.js';
import { createPointsService, type PointsService } from './modules/points/points.service.js';
import { pointsAccountsRepo } from './modules/points/points.ledger.js';
import { expireDueLots } from './modules/points/points.expiry.js';
import { pointsMovementByMonth, pointsSummaryReader } from './modules/points/points.summary.js';
import { createPosService, type PosService } from './modules/points/pos.service.js';
import {
  createTiersService,
  reviewTierAnniversaries,
  tierCounts,
  type TiersService,
} from './modules/points/points.tiers.js';
import { createImportService, type ImportService } from './modules/import/index.js';
import { createReportsService, type ReportsService } from './modules/reports/reports.service.js';
import { createCounterService, type CounterService } from './modules/counter/counter.service.js';
import { schemesRepo } from './modules/schemes/schemes.repo.js';
import { createSchemesService, type SchemesService } from './modules/schemes/schemes.service.js';
import { schemesDueReader } from './modules/schemes/schemes.counter.js';
import { createMemberPayments, type MemberPayments } from './modules/members/members.payments.js';
import { createGatewaySettlements, gatewaySetUp } from './modules/members/index.js';
import { createMembersService, type MembersService } from './modules/members/members.service.js';
import { windowCounter } from './plugins/rate-limit-store.js';
import {
  createSchemePlansService,
  type SchemePlansService,
} from './modules/schemes/scheme-plans.service.js';
import { goldRatesRepo } from './modules/gold-rates/gold-rates.repo.js';
import { createStaffService, type StaffService } from './modules/users/staff.service.js';
import { createUsersService, type UsersService } from './modules/users/users.service.js';

/**
 * Report CSVs streamed at once in the whole chain (each holds a database connection); the next
 * waits its turn.
 */
const REPORT_CSVS_AT_ONCE = 2;

export interface ServicesDeps {
  database: Pick<Database, 'db' | 'pool'>;
  secrets: Pick<Secrets, 'dataKey'>;
  /** "Now" for the store's "today"; tests pin it. */
  clock?: () => Date;
  log?: FastifyBaseLogger;
  /** Wakes the notices' sender once a change that queued a notice has committed. */
  nudgeNotices?: () => void;
  /**
   * Whether the reports may read REPORTS_DATABASE_URL's replica: the server's do; the worker
   * reads no reports and keeps to the primary.
   */
  replica?: boolean;
}

/** The sender's timings a caller may change (tests shorten them). */
export type NoticeSenderTimings = Pick<SenderOptions, 'leaseSeconds' | 'timeoutMs' | 'runSeconds'>;

/** What the background jobs do on a day, each safe to run twice and to be stopped midway. */
export interface BackgroundWork {
  /** The points lots that expire by `day`, expired. */
  expirePoints(day: string): ReturnType<typeof expireDueLots>;
  /** The tiers whose anniversary is `day`, looked at again. */
  reviewTiers(day: string): ReturnType<typeof reviewTierAnniversaries>;
  /** The day's reminders and digests to customers, queued. */
  queueReminders(day: string): ReturnType<typeof queueReminders>;
  /** The daily backup, unless a good one was made since BACKUP_AT last came round. */
  backUp(): ReturnType<BackupsService['scheduled']>;
  /** A sender of the queued notices, logging to `log`. */
  noticeSender(
    log: SenderOptions['log'],
    timings?: NoticeSenderTimings,
  ): ReturnType<typeof createNoticeSender>;
}

/** Every service of the app, each built once, on one database. */
export interface Services {
  config: Config;
  db: Db;
  /** Fails when the database does not answer (the health check). */
  checkDatabase: () => Promise<void>;
  today: () => string;
  reads: Reads;
  users: UsersService;
  outbox: NoticesOutbox;
  messaging: MessagingService;
  /** The official panel (Panel 4): its templates and Meta's webhook. */
  whatsapp: WhatsAppService;
  auth: AuthService;
  staff: StaffService;
  branches: BranchesService;
  customers: CustomersService;
  dataRights: DataRightsService;
  customersExports: CustomersExports;
  exportTickets: ExportTickets;
  points: PointsService;
  pointsRules: PointsRulesService;
  pos: PosService;
  tiers: TiersService;
  schemes: SchemesService;
  schemePlans: SchemePlansService;
  apiKeys: ApiKeysService;
  content: ContentService;
  notices: NoticesService;
  audit: AuditService;
  reports: ReportsService;
  counter: CounterService;
  accounting: AccountingService;
  goldRates: GoldRatesService;
  members: MembersService;
  memberPayments: MemberPayments;
  imports: ImportService;
  backups: BackupsService;
  /** The shop's name, GSTIN, phones and logo, as the owner set them. */
  settings: SettingsService;
  background: BackgroundWork;
}

/**
 * Builds the services: the server hands them to its routes, the jobs (in the server or the
 * worker) take theirs from the same set.
 */
export function createServices(config: Config, deps: ServicesDeps): Services {
  const { db, pool } = deps.database;
  const log = redactingLogger(deps.log ?? pino({ level: 'silent' }));
  const now = () => deps.clock?.() ?? new Date();
  const today = () => todayIn(config.storeTimezone, now());
  const cipher = createFieldCipher(deps.secrets.dataKey);
  const reads: Reads = createReads({
    primary: deps.database,
    replicaUrl: deps.replica === false ? undefined : config.reports.databaseUrl,
    maxLagSeconds: config.reports.maxLagSeconds,
    log,
    preparedStatements: config.preparedStatements,
  });

  // The shop's name and GSTIN as the owner last saved them (the environment's until then):
  // notices, messages and receipts read them at the moment they are made.
  const settings = createSettingsService({
    db,
    initial: {
      companyName: config.branding.companyName,
      tagline: config.branding.companyTagline,
      gstin: config.gstin ?? '',
      supportPhone: config.branding.supportPhone,
      poweredBy: config.branding.poweredBy,
    },
  });
  const users = createUsersService({
    db,
    branches: branchesRepo,
    preparedStatements: config.preparedStatements,
  });
  // Every change a customer hears of queues its notice here, in the change's transaction.
  const outbox = createNoticesOutbox({
    customers: customersRepo,
    branches: branchesRepo,
    panel: messagingRepo,
    points: pointsSummaryReader,
    shop: settings.companyName,
    timeZone: config.storeTimezone,
    clock: deps.clock,
    nudge: deps.nudgeNotices,
  });
  const messaging = createMessagingService({ db, cipher });
  const customers = createCustomersService({ db, cipher, today, points: pointsSummaryReader });
  // An erased customer's number, kept only as this hash: an import leaves them erased.
  const erasedMobileHash = erasedMobileHasher(deps.secrets.dataKey);
  const dataRights = createDataRightsService({
    db,
    customers: customersRepo,
    ledger: pointsRepo,
    schemes: schemesRepo,
    notices: noticesRepo,
    accounts: pointsAccountsRepo,
    erasedMobileHash,
  });
  const schemes = createSchemesService({
    db,
    reads,
    today,
    terms: config.schemeTerms,
    customers: customersRepo,
    branches: branchesRepo,
    notices: outbox,
    goldRates: goldRatesRepo,
    gstin: settings.gstin,
  });
  const hour = 60 * 60_000;
  const backups = createBackupsService({
    db,
    pool,
    settings: config.backups,
    timeZone: config.storeTimezone,
    now,
    log,
    findSessionUser: users.findSessionUser,
  });

  return {
    config,
    db,
    async checkDatabase() {
      await db.execute(sql`SELECT 1`);
    },
    today,
    reads,
    users,
    outbox,
    messaging,
    whatsapp: createWhatsAppService({
      db,
      messaging,
      graph: createGraphClient({
        url: config.whatsapp.graphUrl,
        version: config.whatsapp.graphVersion,
        timeoutMs: config.whatsapp.timeoutMs,
      }),
      customers: customersRepo,
      consents: customers,
      recordDelivery: noticesRepo.recordDelivery,
      log,
    }),
    auth: createAuthService({ db, users, log }),
    staff: createStaffService({ db, branches: branchesRepo }),
    branches: createBranchesService({ db }),
    customers,
    dataRights,
    customersExports: createCustomersExports(pool, reads),
    exportTickets: createExportTickets({ db, findSessionUser: users.findSessionUser }),
    points: createPointsService({ db, reads, today, notices: outbox }),
    pointsRules: createPointsRulesService({ db }),
    tiers: createTiersService({ db, today }),
    pos: createPosService({
      db,
      today,
      customers: customersRepo,
      notices: outbox,
      keyedHash: createKeyedHash(deps.secrets.dataKey, 'pos-documents'),
    }),
    schemes,
    schemePlans: createSchemePlansService({ db, terms: config.schemeTerms }),
    apiKeys: createApiKeysService({ db, branches: branchesRepo }),
    content: createContentService({ db }),
    notices: createNoticesService({
      db,
      timeZone: config.storeTimezone,
      panel: messaging,
      urls: config.messaging.panelUrls,
      shop: () => settings.companyName(),
      log,
      nudge: deps.nudgeNotices,
    }),
    audit: createAuditService({ timeZone: config.storeTimezone, reads }),
    reports: createReportsService({
      reads,
      today,
      timeZone: config.storeTimezone,
      branches: branchesRepo,
      pointValuePaise: async (tx) => (await rulesRepo.current(tx)).pointValuePaise,
      tierCounts,
      openCsv: createCsvStreams({ primary: pool, kind: 'reports', atOnce: REPORT_CSVS_AT_ONCE }),
    }),
    counter: createCounterService({
      db,
      today,
      customers: customersRepo,
      points: pointsSummaryReader,
      schemes: schemesDueReader,
    }),
    accounting: createAccountingService({
      db,
      schemes: schemesRepo,
      branches: branchesRepo,
      points: {
        movementByMonth: pointsMovementByMonth,
        pointValuePaise: pointsSummaryReader.pointValuePaise,
      },
      gateway: createGatewaySettlements(config.razorpay),
      gatewayTimeoutMs: config.razorpay.timeoutMs,
      timeZone: config.storeTimezone,
      tallyUrl: config.tallyUrl,
      tallyTimeoutMs: config.tallyTimeoutMs,
    }),
    goldRates: createGoldRatesService({ db, today }),
    members: createMembersService({
      db,
      today,
      mobileHash: createKeyedHash(deps.secrets.dataKey, 'member-mobiles'),
      codeHash: createKeyedHash(deps.secrets.dataKey, 'member-codes'),
      customers: customersRepo,
      consents: customers,
      dataRights,
      points: pointsSummaryReader,
      schemes: schemesRepo,
      maturity: schemes,
      onlinePayment: gatewaySetUp(config.razorpay),
      panel: messaging,
      panelUrls: config.messaging.panelUrls,
      shop: () => settings.companyNameRead(),
      counters: {
        perAddress: windowCounter(db, 'member-codes-address', hour),
        perMobileMinute: windowCounter(db, 'member-codes-minute', 60_000),
        perMobileHour: windowCounter(db, 'member-codes-hour', hour),
        checksPerAddress: windowCounter(db, 'member-checks-address', hour),
      },
      log,
    }),
    memberPayments: createMemberPayments({
      db,
      today,
      razorpay: config.razorpay,
      schemes,
      schemesRepo,
      log,
      ordersPerHour: windowCounter(db, 'member-orders-hour', hour),
    }),
    imports: createImportService({ db, today, terms: config.schemeTerms, erasedMobileHash }),
    backups,
    settings,
    background: {
      expirePoints: (day) => expireDueLots({ db }, day),
      reviewTiers: (day) => reviewTierAnniversaries({ db }, day),
      queueReminders: (day) =>
        queueReminders({ db, outbox, schemes: schemesRepo, points: pointsSummaryReader }, day),
      backUp: () => backups.scheduled(),
      noticeSender: (senderLog, timings) =>
        createNoticeSender({
          ...timings,
          db,
          panel: messaging,
          customers: customersRepo,
          urls: config.messaging.panelUrls,
          rate: config.messaging.rate,
          log: senderLog,
        }),
    },
  };
}
