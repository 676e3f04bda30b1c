/** The Integrations screen: the API keys the counter's billing system (POS) posts with. */
export const INTEGRATION_TEXTS = {
  table: 'API keys',
  loading: 'Loading API keys',
  empty: 'No API keys yet.',
  loadFailed: 'Error in loading API keys.',
  intro:
    'Each key lets one billing counter post its sales, returns and redemptions for one branch. Revoke a key the counter no longer uses.',
  label: 'Label',
  labelHelp: 'Which counter or billing system uses it, e.g. "Main showroom till 1".',
  branch: 'Branch',
  prefix: 'Key starts with',
  created: 'Made on',
  lastUsed: 'Last used',
  neverUsed: 'Never',
  status: 'Status',
  active: 'Active',
  revoked: 'Revoked',
  actions: 'Actions',
  add: 'Make API key',
  addTitle: 'Make an API key',
  save: 'Make key',
  saving: 'Making key',
  cancel: 'Cancel',
  saveFailed: 'Error in making the API key.',
  shownTitle: (label: string) => `API key for ${label}`,
  shownIntro:
    'Copy this key into the billing system now. It will not be shown again: if it is lost, make a new key and revoke this one.',
  copy: 'Copy',
  copied: 'Copied',
  close: 'Done',
  revoke: (label: string) => `Revoke API key ${label}`,
  revokeTitle: (label: string) => `Revoke the API key ${label}?`,
  revokeBody:
    'The counter using it can no longer post sales, returns or redemptions. This cannot be undone.',
  confirmRevoke: 'Revoke',
  revoking: 'Revoking',
  revokeFailed: 'Error in revoking the API key.',
} as const;

/** The Points Rules screen: how sales earn points and what a point is worth. */
export const POINTS_RULES_TEXTS = {
  loading: 'Loading points rules',
  loadFailed: 'Error in loading points rules.',
  rupeesPerPoint: 'Rupees per point',
  rupeesPerPointHelp: 'A sale earns 1 point for each of these many rupees.',
  excludedCategories: 'Categories that earn no points',
  excludedCategoriesHelp: 'Comma separated, e.g. coin, bullion.',
  pointValue: 'Value of a point (₹)',
  minRedeemPoints: 'Minimum points to redeem',
  expiryMonths: 'Points expire after (months)',
  expiryMonthsHelp: '0 means points never expire.',
  appliesFromNow:
    'A change applies to sales, returns and redemptions from now on; it never changes points already earned or spent.',
  save: 'Save rules',
  saving: 'Saving',
  saveFailed: 'Error in saving the points rules.',
  currentSince: (date: string) => `In force since ${date}.`,
  defaultRules: 'Default rules (never changed).',
  notANumber: (field: string) => `${field} must be a number.`,
} as const;

/** A customer's points as Customer Profile and Edit customer balance show them. */
export const POINTS_SUMMARY_TEXTS = {
  label: 'Loyalty points',
  balance: (points: string) => `${points} points`,
  worth: (rupees: string) => `worth ${rupees}`,
  expiring: (points: string) => `${points} expire within 30 days`,
  noneExpiring: 'none expire within 30 days',
} as const;
