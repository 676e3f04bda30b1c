/**
 * The screens' sidebar labels and page titles. Apart from the sign-in page's own words
 * (ui-texts.ts), so the sign-in page does not load every screen's name: only the signed-in
 * layout reads these.
 */
export const SIDEBAR_LABELS = {
  dashboard: 'Dashboard',
  counter: 'Counter',
  mobileApp: 'Mobile Integration',
  customerProfile: 'Customer Profile',
  loyaltyPoints: 'Loyalty Points',
  redeemPoints: 'Redeem Points',
  schemeGeneration: 'Scheme Initiation',
  goldRate: 'Gold Rate',
  schemePlans: 'Scheme Plans',
  messageConfiguration: 'Message Configuration',
  messageTemplates: 'Message Templates',
  deliveryLog: 'Delivery Log',
  staff: 'Staff',
  branches: 'Branches',
  integrations: 'Integrations',
  pointsRules: 'Points Rules',
  tiers: 'Tiers',
  accounting: 'Accounting',
  importData: 'Import',
  audit: 'Audit Trail',
  backups: 'Backups',
  shopSettings: 'Shop Settings',
  user: 'My Profile',
  statement: 'Points Statement',
  schemeStatement: 'Scheme Statement',
  schemeSummary: 'Scheme Summary',
  collectionsReport: 'Daily Collections',
  overdueReport: 'Overdue Installments',
  maturingReport: 'Maturing Schemes',
  pointsLiabilityReport: 'Points Liability',
  unrecoveredReturns: 'Unrecovered Returns',
  logout: 'Logout',
} as const;

/** The heading of each screen. */
export const PAGE_TITLES = {
  dashboard: 'Dashboard',
  counter: 'Counter',
  mobileApp: 'Customize Mobile App',
  customerProfile: 'Customer Profile',
  customerProfileForm: 'Create / Update customer profile',
  loyaltyPoints: 'Edit customer balance',
  redeemPoints: 'Redeem points at the counter',
  schemeGeneration: 'Generate Scheme',
  goldRate: 'Gold Rate',
  schemePlans: 'Scheme Plans',
  messageConfiguration: 'Message Configuration',
  messageTemplates: 'Message Templates',
  deliveryLog: 'Delivery Log',
  staff: 'Staff',
  branches: 'Branches',
  integrations: 'Integrations',
  pointsRules: 'Points Rules',
  tiers: 'Tiers',
  accounting: 'Accounting (Tally)',
  importData: 'Import from other software',
  audit: 'Audit Trail',
  backups: 'Backups',
  shopSettings: 'Shop Settings',
  user: 'Update Profile',
  statement: 'Points Statement',
  schemeStatement: 'Scheme Statement',
  schemeSummary: 'Scheme Summary',
  collectionsReport: 'Daily Collections',
  overdueReport: 'Overdue Installments',
  maturingReport: 'Maturing Schemes',
  pointsLiabilityReport: 'Points Liability',
  unrecoveredReturns: 'Unrecovered Return Points',
  notFound: 'Page not found',
} as const;

/** The foot of a slip handed to the customer: both sign the printed copy. */
export const SLIP_TEXTS = {
  customerSignature: "Customer's signature",
  shopSignature: (company: string) => `For ${company}: authorised signatory`,
} as const;

/** The banner every signed-in screen shows while the server cannot be reached. */
export const CONNECTION_TEXTS = {
  offline:
    'This computer is offline. What you see may be out of date; it is read again when the network is back.',
  unreachable:
    'The server cannot be reached. Kanak keeps trying; what could not be loaded is read again when it answers.',
  back: 'Connected again.',
  tryNow: 'Try now',
} as const;
