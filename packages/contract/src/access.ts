import type { API_PATHS } from './api-paths.js';

/**
 * Staff roles. The owner runs every branch and the settings; a manager runs a branch's daily
 * work (ledger corrections, exports, cancelling and closing schemes); a cashier serves at the
 * counter (customers, points credit and debit, statements, starting schemes, installments).
 */
export const ROLES = ['owner', 'manager', 'cashier'] as const;
export type Role = (typeof ROLES)[number];

/** Calls anyone may make, signed in or not: the login, health, and the mobile app's content. */
export const PUBLIC_PATHS = [
  'health',
  // For load balancers and service managers: says no more than health does.
  'ready',
  'branding',
  'content',
  'image',
  // The sign-in page and the customers' portal show it before anyone signs in.
  'shopLogo',
  'login',
  // The link itself stands for the signed-in manager who asked for it.
  'exportDownload',
  // The link itself stands for the signed-in owner who asked for it.
  'backupDownload',
  // The customer proves who they are with the code these two send and check.
  'memberOtp',
  'memberVerify',
  // Signed by Razorpay with the webhook secret, checked before anything is read.
  'razorpayWebhook',
  // Meta's handshake proves itself by the verify token; its events are signed with the app
  // secret, checked before anything is read.
  'whatsappWebhook',
] as const;
type PublicPath = (typeof PUBLIC_PATHS)[number];

/**
 * Calls only a machine makes: a counter's billing system with an API key (`X-Api-Key`). No
 * staff token opens them, and an API key opens nothing else (401 both ways).
 */
export const MACHINE_PATHS = [
  'posSales',
  'posReturns',
  'posRedemptions',
  'posRedemptionCancel',
  'posCustomer',
] as const;
type MachinePath = (typeof MACHINE_PATHS)[number];

/**
 * Calls only a signed-in customer makes, with a member token: no staff token or API key opens
 * them, and a member token opens nothing else (401 both ways).
 */
export const MEMBER_PATHS = [
  'memberLogout',
  'memberMe',
  'memberPoints',
  'memberScheme',
  'memberConsent',
  'memberDataExport',
  'memberPay',
  'memberPaymentVerify',
] as const;
type MemberPath = (typeof MEMBER_PATHS)[number];

const everyone: readonly Role[] = ROLES;
const managers: readonly Role[] = ['owner', 'manager'];
const owner: readonly Role[] = ['owner'];

/**
 * Who may make each call: the one copy of the matrix. The server refuses every other role
 * (403) by the route a request reached; the web app shows only what the role may use.
 */
export const ACCESS: Record<
  Exclude<keyof typeof API_PATHS, PublicPath | MachinePath | MemberPath>,
  readonly Role[]
> = {
  logout: everyone,
  me: everyone,
  updateCurrentUser: everyone,
  // A manager manages the cashiers; the owner everyone.
  staff: managers,
  staffAdd: managers,
  staffUpdate: managers,
  staffDisable: managers,
  staffEnable: managers,
  staffResetPassword: managers,
  // Branches are settings: the owner's. Everyone's own branch comes with GET /api/me.
  branches: owner,
  saveBranch: owner,
  // Everyone at the counter quotes the day's rate; a manager or the owner enters it.
  goldRates: everyone,
  goldRateToday: everyone,
  saveGoldRate: managers,
  // Everyone starting a scheme picks a plan; the plans themselves are the owner's settings.
  schemePlans: everyone,
  saveSchemePlan: owner,
  audit: managers,
  searchCustomers: everyone,
  customerData: everyone,
  saveCustomer: everyone,
  exportCustomers: managers,
  exportTicket: managers,
  // Consent is asked at the counter; a copy of everything held is an export (managers);
  // erasing a customer for good is the owner's.
  customerConsent: everyone,
  customerDataExport: managers,
  eraseCustomer: owner,
  updatePoints: everyone,
  redeemPoints: everyone,
  redeemTerms: everyone,
  updateStatement: managers,
  pointsStatement: everyone,
  financialYear: everyone,
  schemes: everyone,
  generateScheme: everyone,
  verifyPan: everyone,
  updatePan: everyone,
  deleteScheme: managers,
  activateScheme: everyone,
  addInstallment: everyone,
  closeScheme: managers,
  closeSchemePreview: managers,
  schemeStatement: everyone,
  schemeSummary: everyone,
  uploadFile: owner,
  deleteFile: owner,
  getFiles: owner,
  panelConfig: owner,
  panelSetup: owner,
  testMessage: owner,
  noticeTemplates: owner,
  // A manager answers customers who say they heard nothing.
  notices: managers,
  noticeResend: managers,
  pointsRules: owner,
  tiers: owner,
  customerTier: owner,
  apiKeys: owner,
  apiKeyRevoke: owner,
  // The books are the owner's: the accountant works from the owner's hand-off.
  accountingSettings: owner,
  tallyExport: owner,
  tallyPush: owner,
  // The owner's view: a manager sees their own branch's figures, whatever branch they ask for.
  dashboard: managers,
  collectionsReport: managers,
  overdueReport: managers,
  maturingReport: managers,
  pointsLiabilityReport: managers,
  unrecoveredReport: managers,
  // Only the caller's own rows: every role's counter home.
  myDay: everyone,
  // The customer in front of the counter, whichever branch: customers are the chain's.
  counterCustomer: everyone,
  // Switching from other software is the owner's.
  importCustomers: owner,
  importSchemes: owner,
  importProgress: owner,
  onlineRefunds: managers,
  markOnlineRefund: managers,
  // A backup holds every customer's data and every password hash: the owner's alone.
  backups: owner,
  backupNow: owner,
  backupTicket: owner,
  // What the shop is called everywhere: the owner's.
  shopSettings: owner,
  saveShopSettings: owner,
  uploadShopLogo: owner,
  removeShopLogo: owner,
  // The official panel's templates: its settings are the owner's.
  whatsappTemplates: owner,
  whatsappTemplatesSync: owner,
};

/** May this role make the call at `path` (a key of API_PATHS)? */
export const mayCall = (role: Role, path: keyof typeof ACCESS) => ACCESS[path].includes(role);
