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
  'branding',
  'content',
  'image',
  'login',
  // The link itself stands for the signed-in manager who asked for it.
  'exportDownload',
] as const;
type PublicPath = (typeof PUBLIC_PATHS)[number];

const everyone: readonly Role[] = ROLES;
const managers: readonly Role[] = ['owner', 'manager'];
const owner: readonly Role[] = ['owner'];

/**
 * Who may make each call: the one copy of the matrix. The server refuses every other role
 * (403) by the route a request reached; the web app shows only what the role may use.
 */
export const ACCESS: Record<Exclude<keyof typeof API_PATHS, PublicPath>, readonly Role[]> = {
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
  searchCustomers: everyone,
  customerData: everyone,
  saveCustomer: everyone,
  exportCustomers: managers,
  exportTicket: managers,
  updatePoints: everyone,
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
  schemeStatement: everyone,
  schemeSummary: everyone,
  uploadFile: owner,
  deleteFile: owner,
  getFiles: owner,
  panelConfig: owner,
  panelSetup: owner,
};

/** May this role make the call at `path` (a key of API_PATHS)? */
export const mayCall = (role: Role, path: keyof typeof ACCESS) => ACCESS[path].includes(role);
