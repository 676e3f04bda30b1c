import type { Role } from './access.js';

/** How each role reads on the screens. */
export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  manager: 'Manager',
  cashier: 'Cashier',
};

/** The Staff screen: accounts, their role and branch, disable and enable, password resets. */
export const STAFF_TEXTS = {
  table: 'Staff accounts',
  loading: 'Loading staff accounts',
  empty: 'No staff accounts yet.',
  loadFailed: 'Error in loading staff accounts.',
  name: 'Name',
  username: 'Username',
  role: 'Role',
  branch: 'Branch',
  status: 'Status',
  actions: 'Actions',
  active: 'Active',
  disabled: 'Disabled',
  mustChange: 'Temporary password',
  add: 'Add staff',
  addTitle: 'Add a staff account',
  editTitle: (username: string) => `Edit ${username}`,
  edit: (username: string) => `Edit ${username}`,
  save: 'Save',
  saving: 'Saving',
  cancel: 'Cancel',
  close: 'Close',
  disable: (username: string) => `Disable ${username}`,
  enable: (username: string) => `Enable ${username}`,
  resetPassword: (username: string) => `Reset password of ${username}`,
  confirmDisableTitle: (username: string) => `Disable ${username}?`,
  confirmDisable:
    'They are signed out at once and cannot sign in until the account is enabled again.',
  confirmEnableTitle: (username: string) => `Enable ${username}?`,
  confirmEnable: 'They can sign in again with their password.',
  confirmResetTitle: (username: string) => `Reset the password of ${username}?`,
  confirmReset:
    'They are signed out at once. A new temporary password is shown once; they change it at their next sign-in.',
  confirm: 'Confirm',
  confirming: 'Working',
  temporaryTitle: (username: string) => `Temporary password of ${username}`,
  temporaryIntro:
    'Give this password to the staff member. It is shown only now; they must change it when they first sign in.',
  copy: 'Copy',
  copied: 'Copied',
  changeFailed: 'Error in saving the staff account.',
} as const;

/** The Branches screen: the shop's showrooms, their codes, addresses and phones. */
export const BRANCH_TEXTS = {
  table: 'Branches',
  loading: 'Loading branches',
  empty: 'No branches yet.',
  loadFailed: 'Error in loading branches.',
  code: 'Code',
  codeHelp: '2 to 6 capital letters; starts each receipt number. It cannot change later.',
  name: 'Branch name',
  address: 'Address',
  phone: 'Phone',
  receiptPaper: 'Receipt printer',
  receiptPapers: { a4: 'A4 sheets', '80mm': '80 mm thermal roll' },
  actions: 'Actions',
  add: 'Add branch',
  addTitle: 'Add a branch',
  editTitle: (code: string) => `Edit branch ${code}`,
  edit: (code: string) => `Edit branch ${code}`,
  save: 'Save',
  saving: 'Saving',
  cancel: 'Cancel',
  saveFailed: 'Error in saving the branch.',
} as const;
