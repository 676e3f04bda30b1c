import type { ACCESS } from '@kanak/contract';

/** Every route of the web app. */
export const PATHS = {
  login: '/',
  home: '/home',
  counter: '/home/counter',
  mobileApp: '/home/mobile-app',
  customerProfile: '/home/customer-profile',
  loyaltyPoints: '/home/loyalty-points',
  redeemPoints: '/home/redeem-points',
  schemeGeneration: '/home/scheme-generation',
  goldRate: '/home/gold-rate',
  schemePlans: '/home/scheme-plans',
  messageConfiguration: '/home/message-configuration',
  messageTemplates: '/home/message-templates',
  staff: '/home/staff',
  branches: '/home/branches',
  integrations: '/home/integrations',
  pointsRules: '/home/points-rules',
  tiers: '/home/tiers',
  accounting: '/home/accounting',
  importData: '/home/import',
  audit: '/home/audit',
  backups: '/home/backups',
  shopSettings: '/home/shop-settings',
  deliveryLog: '/home/delivery-log',
  user: '/home/user',
  statement: '/home/statement',
  schemeStatement: '/home/scheme-statement',
  schemeSummary: '/home/scheme-summary',
  collectionsReport: '/home/daily-collections',
  overdueReport: '/home/overdue-installments',
  maturingReport: '/home/maturing-schemes',
  pointsLiabilityReport: '/home/points-liability',
  unrecoveredReturns: '/home/unrecovered-returns',
} as const;

export type ScreenKey = Exclude<keyof typeof PATHS, 'login' | 'home'> | 'dashboard';

export interface Screen {
  key: ScreenKey;
  path: string;
  /** `main` above the sidebar's divider, `statements` below it. */
  group: 'main' | 'statements';
  /** The call the screen is built on, when not every role may make it: the screen is theirs. */
  access?: keyof typeof ACCESS;
}

const screen = (
  key: ScreenKey,
  path: string,
  group: Screen['group'],
  access?: keyof typeof ACCESS,
): Screen => ({
  key,
  path,
  group,
  access,
});

/** The screens under /home, in sidebar order. */
export const SCREENS: readonly Screen[] = [
  screen('dashboard', PATHS.home, 'main'),
  screen('counter', PATHS.counter, 'main', 'myDay'),
  screen('mobileApp', PATHS.mobileApp, 'main', 'getFiles'),
  screen('customerProfile', PATHS.customerProfile, 'main'),
  screen('loyaltyPoints', PATHS.loyaltyPoints, 'main'),
  screen('redeemPoints', PATHS.redeemPoints, 'main', 'redeemPoints'),
  screen('schemeGeneration', PATHS.schemeGeneration, 'main'),
  // Everyone quotes the day's rate at the counter: a cashier sees it, a manager enters it.
  screen('goldRate', PATHS.goldRate, 'main'),
  // Everyone reads the plans to start a scheme; the screen that changes them is the owner's.
  screen('schemePlans', PATHS.schemePlans, 'main', 'saveSchemePlan'),
  screen('messageConfiguration', PATHS.messageConfiguration, 'main', 'panelConfig'),
  screen('messageTemplates', PATHS.messageTemplates, 'main', 'noticeTemplates'),
  screen('staff', PATHS.staff, 'main', 'staff'),
  screen('branches', PATHS.branches, 'main', 'branches'),
  screen('integrations', PATHS.integrations, 'main', 'apiKeys'),
  screen('pointsRules', PATHS.pointsRules, 'main', 'pointsRules'),
  screen('tiers', PATHS.tiers, 'main', 'tiers'),
  screen('accounting', PATHS.accounting, 'main', 'accountingSettings'),
  screen('importData', PATHS.importData, 'main', 'importCustomers'),
  screen('audit', PATHS.audit, 'main', 'audit'),
  screen('backups', PATHS.backups, 'main', 'backups'),
  screen('shopSettings', PATHS.shopSettings, 'main', 'shopSettings'),
  screen('deliveryLog', PATHS.deliveryLog, 'main', 'notices'),
  screen('user', PATHS.user, 'main'),
  screen('statement', PATHS.statement, 'statements'),
  screen('schemeStatement', PATHS.schemeStatement, 'statements'),
  screen('schemeSummary', PATHS.schemeSummary, 'statements'),
  // The owner's reports: a manager's show their own branch.
  screen('collectionsReport', PATHS.collectionsReport, 'statements', 'collectionsReport'),
  screen('overdueReport', PATHS.overdueReport, 'statements', 'overdueReport'),
  screen('maturingReport', PATHS.maturingReport, 'statements', 'maturingReport'),
  screen(
    'pointsLiabilityReport',
    PATHS.pointsLiabilityReport,
    'statements',
    'pointsLiabilityReport',
  ),
  screen('unrecoveredReturns', PATHS.unrecoveredReturns, 'statements', 'unrecoveredReport'),
];
