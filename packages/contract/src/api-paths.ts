/**
 * The API's paths, relative to the `/api` prefix.
 * The server registers exactly these and the web app calls exactly these.
 */
import { SIGN_IN_API_PATHS } from './sign-in-paths.js';

export const API_PATHS = {
  ...SIGN_IN_API_PATHS,
  /**
   * Whether this instance should get traffic: its database answers, has every migration this
   * version needs, and the instance is not stopping. `health` says only that it lives.
   */
  ready: '/ready',
  staff: '/staff',
  staffAdd: '/staff/add',
  staffUpdate: '/staff/update',
  staffDisable: '/staff/disable',
  staffEnable: '/staff/enable',
  staffResetPassword: '/staff/reset-password',
  branches: '/branches',
  saveBranch: '/branches',
  /** The day's gold rate, 22K and 24K in rupees per gram: entered, corrected, its history. */
  goldRates: '/gold-rates',
  saveGoldRate: '/gold-rates',
  goldRateToday: '/gold-rates/today',
  /** The scheme plans (value or weight) schemes may be started on. */
  schemePlans: '/scheme-plans',
  saveSchemePlan: '/scheme-plans',
  /** Every change, who made it and the values before and after (JSON, or CSV with format=csv). */
  audit: '/audit',
  updateCurrentUser: '/user/update-current-user',
  uploadFile: '/file/upload',
  deleteFile: '/file/delete',
  getFiles: '/file/get-files',
  searchCustomers: '/customers/get-all-customers',
  updatePoints: '/customers/update-points',
  /** Points redeemed at the counter by staff. */
  redeemPoints: '/points/redeem',
  /** A customer's balance, its value and the minimum, before a counter redemption. */
  redeemTerms: '/points/redeem-terms',
  updateStatement: '/customers/update-statement',
  pointsStatement: '/customers/generate-statement',
  financialYear: '/customers/get-fyear',
  customerData: '/customers/get-customer-data',
  saveCustomer: '/customers/update-customer-data',
  exportCustomers: '/customers/download-customer-data',
  /** A single-use link for the browser to download the customer CSV itself. */
  exportTicket: '/customers/export-ticket',
  exportDownload: '/customers/export-download',
  customerConsent: '/customers/consent',
  customerDataExport: '/customers/data-export',
  eraseCustomer: '/customers/erase',
  panelConfig: '/social/get-panel-config',
  panelSetup: '/social/panel-setup',
  /** One WhatsApp message to the saved Phone, sent now: the provider's answer comes back. */
  testMessage: '/social/test-message',
  /** The Delivery Log: every notice to customers and how it went. */
  notices: '/notices',
  noticeResend: '/notices/resend',
  /** GET lists every event's template, POST saves one. */
  noticeTemplates: '/settings/notice-templates',
  schemes: '/scheme/get-all',
  generateScheme: '/scheme/generate',
  verifyPan: '/scheme/verify-pan',
  updatePan: '/scheme/update-pan',
  deleteScheme: '/scheme/delete',
  schemeStatement: '/scheme/generate-statement',
  schemeSummary: '/scheme/generate-summary',
  activateScheme: '/scheme/activate',
  addInstallment: '/scheme/add-installment',
  closeScheme: '/scheme/close',
  /** What closing would pay today, read before the close is confirmed. */
  closeSchemePreview: '/scheme/close-preview',
  /** GET reads the points rules in force, POST sets new ones from now on. */
  pointsRules: '/settings/points',
  /** GET reads the tiers, POST sets them. */
  tiers: '/settings/tiers',
  /** An owner's tier for one customer, until a date. */
  customerTier: '/customers/tier',
  /** GET lists the API keys, POST makes one. */
  apiKeys: '/settings/api-keys',
  apiKeyRevoke: '/settings/api-keys/revoke',
  /** GET reads the Tally company and ledger names, POST saves them. */
  accountingSettings: '/settings/accounting',
  /** The vouchers of a date range as one Tally XML import file. */
  tallyExport: '/accounting/tally-export',
  /** The same vouchers sent to Tally's XML server, with Tally's answer. */
  tallyPush: '/accounting/tally-push',
  /** The owner's view: today's and this month's figures and 12-month charts (?branch=). */
  dashboard: '/dashboard',
  /** The cash book: every installment and redemption of the days asked, with till totals. */
  collectionsReport: '/reports/collections',
  overdueReport: '/reports/overdue',
  maturingReport: '/reports/maturing',
  pointsLiabilityReport: '/reports/points-liability',
  unrecoveredReport: '/reports/unrecovered',
  /** The signed-in staff member's own installments taken today: the counter home's list. */
  myDay: '/reports/my-day',
  /** The customer at the counter: their points, those expiring soon, running schemes and dues. */
  counterCustomer: '/counter/customer',
  posSales: '/pos/sales',
  posReturns: '/pos/returns',
  posRedemptions: '/pos/redemptions',
  posRedemptionCancel: '/pos/redemptions/cancel',
  posCustomer: '/pos/customers/:mobile',
  /** Customers with their opening points, from another program's CSV or Excel export. */
  importCustomers: '/import/customers',
  /** Running schemes with the installments already paid, from another program's export. */
  importSchemes: '/import/schemes',
  /** How far the caller's import in progress has got (`?key=` its Idempotency-Key). */
  importProgress: '/import/progress',
  /** Payments made online that bought no installment, and noting each one refunded. */
  onlineRefunds: '/online-payments/refunds',
  markOnlineRefund: '/online-payments/refunds/mark',
  /** GET lists the backups, newest first; POST makes one now ("Back up now"). */
  backups: '/backups',
  backupNow: '/backups',
  /** A single-use link for the browser to download one backup file itself. */
  backupTicket: '/backups/ticket',
  backupDownload: '/backups/download',
  /** GET reads the shop's name, tagline, GSTIN, phones and logo; PUT saves them (owner). */
  shopSettings: '/settings/shop',
  saveShopSettings: '/settings/shop',
  /** POST uploads the shop's logo (multipart `file`), DELETE removes it (owner). */
  uploadShopLogo: '/settings/shop/logo',
  removeShopLogo: '/settings/shop/logo',
  /** The shop's logo itself, for the sign-in page, printouts and the portal. */
  shopLogo: '/app/logo',
  /** The official panel's message templates as Meta holds them, read at the last sync. */
  whatsappTemplates: '/whatsapp/templates',
  /** The templates read again from Meta, replacing those held. */
  whatsappTemplatesSync: '/whatsapp/templates/sync',
} as const;

/**
 * The customer's own calls and the gateways' webhooks, apart from API_PATHS: the staff app never
 * calls them, and its first page carries API_PATHS.
 */
export const MEMBER_API_PATHS = {
  memberOtp: '/member/otp',
  memberVerify: '/member/verify',
  memberLogout: '/member/logout',
  memberMe: '/member/me',
  memberPoints: '/member/points',
  memberScheme: '/member/schemes/:schemeid',
  memberConsent: '/member/consent',
  memberDataExport: '/member/data-export',
  memberPay: '/member/schemes/:schemeid/pay',
  memberPaymentVerify: '/member/payments/verify',
  /** Razorpay's webhook: its signature, not a token, says who sent it. */
  razorpayWebhook: '/payments/razorpay/webhook',
  /**
   * WhatsApp's webhook (the official panel): GET is Meta's handshake with the verify token,
   * POST its events, signed with the app secret over the body as sent.
   */
  whatsappWebhook: '/whatsapp/webhook',
} as const;
