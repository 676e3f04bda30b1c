import { SCHEME_STATUS } from './schemas/schemes.js';
import { formatAuditValue } from './schemas/audit.js';

/**
 * The Audit Trail in a manager's words: what was done ("Points credited"), the fields by their
 * screen names ("Date") and coded values by what they mean ("Inactive → Active"). The log keeps
 * the code's names; only what people read is translated. Anything unknown shows as stored.
 */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'accounting.save': 'Accounting settings changed',
  'accounting.tallyPush': 'Vouchers sent to Tally',
  'accounting.razorpaySettlements': 'Razorpay payouts recorded for the books',
  'apiKey.add': 'Counter key added',
  'apiKey.revoke': 'Counter key revoked',
  'backup.download': 'Backup downloaded',
  'backup.run': 'Backup made (Back up now)',
  'branch.add': 'Branch added',
  'branch.update': 'Branch changed',
  'consent.grant': 'Consent given',
  'consent.withdraw': 'Consent withdrawn',
  'customer.create': 'Customer added',
  'customer.erase': 'Customer data erased',
  'customer.pan': 'PAN recorded',
  'customer.update': 'Customer changed',
  'goldRate.add': 'Gold rate entered',
  'goldRate.correct': 'Gold rate corrected',
  'image.delete': 'App image removed',
  'image.upload': 'App image added',
  'member.signIn': 'Customer signed in (own phone)',
  'member.signOut': 'Customer signed out (own phone)',
  'notice.resend': 'Notice sent again',
  'noticeTemplate.save': 'Message template saved',
  'panel.create': 'Messaging panel set up',
  'panel.update': 'Messaging panel changed',
  'points.credit': 'Points credited',
  'points.debit': 'Points deducted',
  'points.edit': 'Points entry corrected',
  'points.expire': 'Points expired',
  'points.opening': 'Opening points imported',
  'points.redeem': 'Points redeemed',
  'pointsRules.save': 'Points rules changed',
  'pos.redeem': 'Points redeemed at the counter',
  'pos.redeemCancel': 'Redemption cancelled at the counter',
  'pos.return': 'Return at the counter',
  'pos.sale': 'Sale at the counter',
  'scheme.activate': 'Scheme activated',
  'scheme.cancel': 'Scheme cancelled',
  'scheme.close': 'Scheme closed',
  'scheme.generate': 'Scheme started',
  'scheme.import': 'Running scheme imported',
  'scheme.installment': 'Installment received',
  'scheme.onlineOrder': 'Online payment started',
  'scheme.onlineOverpayment': 'Online payment to refund',
  'scheme.onlinePaymentMismatch': 'Online payment of the wrong amount, to refund',
  'scheme.onlinePayment': 'Installment paid online',
  'scheme.onlineRefunded': 'Online payment refunded',
  'schemePlan.add': 'Scheme plan added',
  'schemePlan.update': 'Scheme plan changed',
  'shop.logo': 'Shop logo changed',
  'shop.logoRemove': 'Shop logo removed',
  'shop.save': 'Shop settings changed',
  'staff.add': 'Staff added',
  'staff.disable': 'Staff account disabled',
  'staff.enable': 'Staff account enabled',
  'staff.reset-password': 'Password reset',
  'staff.update': 'Staff changed',
  'tier.lowered': 'Tier lowered on its anniversary',
  'tier.raised': 'Tier raised by a sale',
  'tier.setByHand': 'Tier set by hand',
  'tiers.save': 'Tiers changed',
  'user.add': 'Staff added',
  'user.disable': 'Staff account disabled',
  'user.logout': 'Logged out',
  'user.passwd': 'Password changed',
  'user.password': 'Password changed',
  'whatsapp.templatesSync': 'WhatsApp Business templates read again',
};

export const AUDIT_FIELD_LABELS: Record<string, string> = {
  aadhaar: 'Aadhaar',
  address: 'Address',
  amount: 'Amount',
  appSecret: 'App secret',
  apiKeyId: 'Counter key no.',
  backdateReason: 'Reason for the earlier date',
  balance: 'Balance',
  bonus: 'Bonus',
  branch: 'Branch',
  businessAccountId: 'Business account id',
  city: 'City',
  companyName: 'Shop name',
  confirmedUnusual: 'Saved though unusual',
  counter: 'Counter',
  credit: 'Credit',
  custname: 'Name',
  customerId: 'Customer no.',
  customers: 'Customers',
  debit: 'Debit',
  disabled: 'Disabled',
  doa: 'Anniversary Date',
  dob: 'Date of Birth',
  eligibleAmount: 'Amount earning points',
  email: 'Email',
  excludedCategories: 'Categories that earn no points',
  expected: 'Expected (₹)',
  expiryMonths: 'Points expire after (months)',
  gstin: 'GSTIN',
  invdate: 'Date',
  invoiceNo: 'Invoice no.',
  label: 'Counter key',
  matdt: 'Maturity date',
  maturityValue: 'Maturity value',
  minRedeemPoints: 'Minimum points to redeem',
  mobileno: 'Mobile',
  mode: 'Mode',
  name: 'Name',
  namedInOtherRows: "Other customers' rows that named them, cleared",
  narration: 'Narration',
  paid: 'Paid',
  paidOn: 'Paid on',
  pan: 'PAN',
  pincode: 'Pincode',
  pointValue: 'Value of a point (₹)',
  points: 'Points',
  poweredBy: 'Powered by',
  purpose: 'Purpose',
  receiptNo: 'Receipt no.',
  received: 'Received (₹)',
  returnNo: 'Return no.',
  role: 'Role',
  rupeesPerPoint: 'Rupees per point',
  sessionsEnded: 'Sessions ended',
  startdt: 'Start date',
  state: 'State',
  status: 'Status',
  supportPhone: 'Support phone',
  tagline: 'Tagline',
  templates: 'Templates',
  temporaryPassword: 'Temporary password',
  today: 'Date',
  tokenEnded: 'Session ended',
  username: 'Username',
};

const SCHEME_STATUS_WORDS: Record<string, string> = {
  [SCHEME_STATUS.inactive]: 'Inactive',
  [SCHEME_STATUS.active]: 'Active',
  [SCHEME_STATUS.completed]: 'Completed',
  [SCHEME_STATUS.cancelled]: 'Cancelled',
};

export const auditActionLabel = (action: string) => AUDIT_ACTION_LABELS[action] ?? action;

export const auditFieldLabel = (field: string) => AUDIT_FIELD_LABELS[field] ?? field;

/** One value as a manager reads it: a scheme's status by name, yes or no for a flag. */
export function auditValueText(field: string, value: unknown): string {
  if (field === 'status' && typeof value === 'string' && value in SCHEME_STATUS_WORDS)
    return SCHEME_STATUS_WORDS[value]!;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return formatAuditValue(value);
}

/** One changed field: its label and its value before and after (null: that side has none). */
export interface AuditChange {
  field: string;
  before: string | null;
  after: string | null;
}

/** Each field of a change once, in the order it was written: "Status: Inactive → Active". */
export function auditChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => ({
    field: auditFieldLabel(field),
    before: before && field in before ? auditValueText(field, before[field]) : null,
    after: after && field in after ? auditValueText(field, after[field]) : null,
  }));
}

/** A change as one line of text (the CSV): "Status: Inactive → Active; Mode: Cash". */
export function auditChangeLine(change: AuditChange): string {
  if (change.before !== null && change.after !== null)
    return `${change.field}: ${change.before} → ${change.after}`;
  return `${change.field}: ${change.after ?? change.before}`;
}

/** Who made a change at the counter: the key's label, as the owner named it on Integrations. */
export const counterWho = (label: string | null) =>
  label ? `Counter: ${label}` : 'Counter (billing system)';
