/**
 * The fixed texts of the sign-in and profile forms (the screens' sidebar labels and titles are in
 * ui-texts-screens.ts). The web app and the e2e tests import them from here.
 */
export const UI_TEXTS = {
  productName: 'Kanak',
  /** The server's branding defaults, shown until GET /api/app/branding answers. */
  defaultBranding: { companyName: 'Kanak Jewellers', companyTagline: 'Since 1928' },
  /** The address and mobile line under the shop's heading on every printout. */
  printAddress: (address: string, phone: string) => `${address} · Mobile: ${phone}`,
  /** Under every paged table. */
  pager: { previous: 'Previous page', next: 'Next page' },
  login: {
    username: 'Username',
    password: 'Password',
    stayLoggedIn: 'Stay logged in',
    submit: 'Login',
    pending: 'Signing in',
    welcome: 'Welcome! Please sign in to continue.',
    lastChangeNotSaved:
      'Your last change was not saved: the session had expired. Please check it and do it again.',
  },
  profile: {
    username: 'Username',
    oldPassword: 'Old password',
    newPassword: 'New password',
    submit: 'Update',
    reset: 'Cancel',
    pending: 'Updating',
    showPasswords: 'Show passwords',
    hidePasswords: 'Hide passwords',
  },
  layout: {
    skipToContent: 'Skip to main content',
    mainNavigation: 'Main navigation',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    loadingMenu: 'Loading the menu',
    accountMenu: 'Account menu',
    /** The signed-in staff member's branch, in the account menu. */
    branch: (name: string, code: string) => `Branch: ${name} (${code})`,
    logout: 'Logout',
    poweredBy: (company: string) => `Powered by ${company}`,
    support: 'Support',
  },
  notFound: {
    text: 'There is no screen at this address.',
    back: 'Go to Dashboard',
  },
  routeError: {
    text: 'This screen could not be opened. Please check the connection and reload.',
    retry: 'Try again',
    reload: 'Reload',
  },
  routeLoading: 'Loading screen',
} as const;

/**
 * The screen a temporary password leads to, before anything else. Not in UI_TEXTS: the login
 * page carries UI_TEXTS, and these words only the signed-in app.
 */
export const PASSWORD_CHANGE_TEXTS = {
  title: 'Change your password',
  intro:
    'You signed in with a temporary password. Choose your own password (8 to 15 characters) to continue.',
  currentPassword: 'Temporary password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  mismatch: 'The new passwords do not match.',
  submit: 'Change password',
  pending: 'Changing password',
  logout: 'Logout',
} as const;
