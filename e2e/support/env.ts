/** The e2e run's fixed facts: the admin the global setup creates, and the spec's texts. */

export const ADMIN = {
  username: 'admin',
  /** ADMIN_PASSWORD for the first start (8–15 characters). */
  password: 'Kanak@e2e1',
  /** Used by the password-change test, which changes it back afterwards. */
  otherPassword: 'Kanak@e2e2',
} as const;

/** Browser storage keys (the prefix is `kanak.`). */
export const STORAGE_PREFIX = 'kanak.';
export const STORAGE_KEYS = {
  accessToken: 'kanak.accessToken',
  user: 'kanak.user',
  stayLoggedIn: 'kanak.stayLoggedIn',
} as const;

/** Texts the spec fixes, copied from the specification (deliberately not imported from the app). */
export const TEXT = {
  invalidCredentials: 'Invalid credentials.',
  sessionExpired: 'Session expired. Please sign in again.',
  provideNewPassword: 'Please provide new password.',
  provideOldPassword: 'Please provide old password.',
  oldPasswordIncorrect: 'Old password is incorrect.',
  passwordUpdated: 'Password updated successfully.',
} as const;

export interface SidebarEntry {
  /** The entry's text in the sidebar. */
  name: string;
  path: string;
  /** The page's title; the entry's name where the spec gives none. */
  title: RegExp;
}

/** The first group, then the second group below the divider. */
export const SIDEBAR: readonly SidebarEntry[] = [
  { name: 'Dashboard', path: '/home', title: /^Dashboard$/ },
  { name: 'Mobile Integration', path: '/home/mobile-app', title: /^Customize Mobile App$/ },
  { name: 'Customer Profile', path: '/home/customer-profile', title: /^Customer Profile$/ },
  { name: 'Loyalty Points', path: '/home/loyalty-points', title: /^Edit customer balance$/ },
  { name: 'Redeem Points', path: '/home/redeem-points', title: /^Redeem points at the counter$/ },
  { name: 'Scheme Initiation', path: '/home/scheme-generation', title: /^Generate Scheme$/ },
  { name: 'Gold Rate', path: '/home/gold-rate', title: /^Gold Rate$/ },
  {
    name: 'Message Configuration',
    path: '/home/message-configuration',
    title: /^Message Configuration$/,
  },
  { name: 'Message Templates', path: '/home/message-templates', title: /^Message Templates$/ },
  { name: 'Staff', path: '/home/staff', title: /^Staff$/ },
  { name: 'Branches', path: '/home/branches', title: /^Branches$/ },
  { name: 'Integrations', path: '/home/integrations', title: /^Integrations$/ },
  { name: 'Points Rules', path: '/home/points-rules', title: /^Points Rules$/ },
  { name: 'Accounting', path: '/home/accounting', title: /^Accounting \(Tally\)$/ },
  { name: 'Audit Trail', path: '/home/audit', title: /^Audit Trail$/ },
  { name: 'Backups', path: '/home/backups', title: /^Backups$/ },
  { name: 'Delivery Log', path: '/home/delivery-log', title: /^Delivery Log$/ },
  { name: 'My Profile', path: '/home/user', title: /^Update Profile$/ },
  { name: 'Points Statement', path: '/home/statement', title: /^Points Statement$/ },
  { name: 'Scheme Statement', path: '/home/scheme-statement', title: /^Scheme Statement$/ },
  { name: 'Scheme Summary', path: '/home/scheme-summary', title: /^Scheme Summary$/ },
  { name: 'Daily Collections', path: '/home/daily-collections', title: /^Daily Collections$/ },
  {
    name: 'Overdue Installments',
    path: '/home/overdue-installments',
    title: /^Overdue Installments$/,
  },
  { name: 'Maturing Schemes', path: '/home/maturing-schemes', title: /^Maturing Schemes$/ },
  { name: 'Points Liability', path: '/home/points-liability', title: /^Points Liability$/ },
  {
    name: 'Unrecovered Returns',
    path: '/home/unrecovered-returns',
    title: /^Unrecovered Return Points$/,
  },
];

export const DESKTOP = { width: 1366, height: 768 } as const;
export const PHONE = { width: 390, height: 844 } as const;
