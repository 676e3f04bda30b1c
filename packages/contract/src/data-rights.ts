/**
 * Customers' data rights under the Digital Personal Data Protection Act 2023 and its Rules
 * 2025: consent per purpose, a copy of everything held, erasure. The server's messages and
 * the screens' texts.
 */

/** What a customer may consent to: notices of their own account, and offers. */
export const CONSENT_PURPOSES = ['transactional', 'marketing'] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

/**
 * The version of the privacy notice staff show a customer when asking for consent. Every
 * consent row records it; change it when the notice's text changes.
 */
export const PRIVACY_NOTICE_VERSION = '2025-11';

/** How a consent was given or withdrawn: at the counter, by the customer signed in, by erasure. */
export const CONSENT_METHODS = {
  staff: 'staff',
  customer: 'customer',
  erasure: 'erasure',
  /** The customer's own STOP, sent to the shop's official WhatsApp number. */
  whatsapp: 'whatsapp',
} as const;

/** The name an erased customer keeps, so ledgers and schemes still read sensibly. */
export const ERASED_CUSTOMER_NAME = 'Erased customer';
/** What an erasure leaves in place of a text that may name the customer (a narration). */
export const ERASED_TEXT = '(erased)';

export const DATA_RIGHTS_MESSAGES = {
  consentRecorded: (purpose: string, granted: boolean) =>
    `${CONSENT_LABELS[purpose as ConsentPurpose] ?? purpose} consent ${granted ? 'recorded' : 'withdrawn'}.`,
  consentOfErased: 'This customer has been erased; no consent can be recorded.',
  customerErased:
    'Customer erased. The ledger, schemes and receipts are kept without personal data.',
  customerAlreadyErased: 'This customer was already erased.',
  eraseActiveScheme: (schemeId: number) =>
    `This customer has an active scheme (${schemeId}): it must be closed before the customer can be erased, because its installments are still being paid.`,
  eraseInactiveScheme: (schemeId: number) =>
    `This customer has a scheme (${schemeId}) not yet started: cancel it first, then erase the customer.`,
} as const;

export const CONSENT_LABELS: Record<ConsentPurpose, string> = {
  transactional: 'WhatsApp notices of points, schemes and receipts',
  marketing: 'Offers and marketing messages',
};

export const DATA_RIGHTS_TEXTS = {
  heading: 'Consent and data rights',
  consentPrompt:
    'No consent is recorded for this customer. Read them the privacy notice and record what they agree to.',
  consentHistory: 'Consent history',
  noHistory: 'No consent recorded yet.',
  granted: 'Granted',
  withdrawn: 'Withdrawn',
  noticeVersion: (version: string) => `notice ${version}`,
  /** How a consent was given or withdrawn, by its method. */
  method: {
    staff: 'at the counter',
    customer: 'by the customer, signed in',
    erasure: 'erasure',
    whatsapp: 'by the customer, via WhatsApp',
  } satisfies Record<keyof typeof CONSENT_METHODS, string>,
  downloadJson: 'Download customer data',
  printData: 'Print customer data',
  printTitle: 'Customer data held',
  erase: 'Erase customer',
  eraseTitle: 'Erase this customer?',
  eraseBody:
    'Name, contact, address, dates, Aadhaar and PAN are removed for good and the mobile number is freed. The points ledger, schemes and receipts are kept without personal data. This cannot be undone.',
  eraseConfirmLabel: (mobileno: string) => `Type the mobile number ${mobileno} to confirm`,
  eraseConfirm: 'Erase',
  noticesSentNone: 'No notices have been sent to this customer.',
  /** A consent switch asks before it records: a stray click changes nothing. */
  consentConfirmTitle: (granted: boolean) =>
    granted ? 'Record this consent?' : 'Record this withdrawal?',
  consentConfirmBody: (name: string, purpose: string, granted: boolean) =>
    granted
      ? `${name} agrees to: ${purpose}. This is recorded with your name and the time.`
      : `${name} withdraws consent to: ${purpose}. This is recorded with your name and the time.`,
  consentConfirm: 'Record',
  consentCancel: 'Cancel',
} as const;

/** The file name of one customer's data download. */
export const customerDataFileName = (custid: number) => `customer_${custid}_data.json`;
