/**
 * The API's paths, relative to the `/api` prefix.
 * The server registers exactly these and the web app calls exactly these.
 */
export const API_PREFIX = '/api';

export const API_PATHS = {
  health: '/health',
  branding: '/app/branding',
  content: '/app/content',
  image: '/app/images/:id',
  login: '/login/verify',
  logout: '/logout',
  me: '/me',
  staff: '/staff',
  staffAdd: '/staff/add',
  staffUpdate: '/staff/update',
  staffDisable: '/staff/disable',
  staffEnable: '/staff/enable',
  staffResetPassword: '/staff/reset-password',
  updateCurrentUser: '/user/update-current-user',
  uploadFile: '/file/upload',
  deleteFile: '/file/delete',
  getFiles: '/file/get-files',
  searchCustomers: '/customers/get-all-customers',
  updatePoints: '/customers/update-points',
  updateStatement: '/customers/update-statement',
  pointsStatement: '/customers/generate-statement',
  financialYear: '/customers/get-fyear',
  customerData: '/customers/get-customer-data',
  saveCustomer: '/customers/update-customer-data',
  exportCustomers: '/customers/download-customer-data',
  /** A single-use link for the browser to download the customer CSV itself. */
  exportTicket: '/customers/export-ticket',
  exportDownload: '/customers/export-download',
  panelConfig: '/social/get-panel-config',
  panelSetup: '/social/panel-setup',
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
} as const;
