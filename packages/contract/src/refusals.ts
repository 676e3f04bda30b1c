/**
 * The words of a refused request. The schemas' own messages are full sentences naming their
 * field as the screens do; a check of the validation library's own (a field missing, or of the
 * wrong kind) is no sentence and knows only the field's key, so it is said here, the field
 * named as a shop assistant knows it, never by its code name (CUSTNAME, formData.POINTS).
 */

/** How the screens name a field whose key is no word of its own. */
const FIELD_NAMES: Record<string, string> = {
  formData: 'The form',
  USERNAME: 'Username',
  PASSWORD: 'Password',
  CUSTNAME: 'Name',
  MOBILENO: 'Mobile no.',
  POINTS: 'Loyalty points',
  NARRATION: 'Narration',
  INVDATE: 'Date',
  CASHCR: 'Allocation or deduction',
  MRN: 'The entry',
  DFROM: 'Date from',
  DTO: 'Date to',
  custid: 'The customer',
  custname: 'Name',
  mobileno: 'Mobile no.',
  schemeid: 'Scheme ID',
  startdt: 'Start date',
  datefrom: 'From date',
  dateto: 'To date',
  instanceid: 'Instance Id',
  oldpassword: 'Old password',
  newpassword: 'New password',
  doa: 'Anniversary date',
  dob: 'Date of birth',
  pan: 'PAN',
  id: 'The record',
  invoiceNo: 'Invoice number',
  returnNo: 'Return number',
  paymentId: 'Payment',
  rate22k: '22K rate',
  rate24k: '24K rate',
  minSpend: 'Minimum spend',
  earnPercent: 'Earning %',
  minAmount: 'Minimum installment',
  redeemWithinDays: 'Days to redeem',
  pointValue: 'The value of a point',
  minRedeemPoints: 'Minimum points to redeem',
  expiryMonths: 'Months before points expire',
  excludedCategories: 'Categories that earn no points',
  pageSize: 'Rows per page',
  asOf: 'As of date',
  advance: 'Paying in advance',
  confirmed: 'The confirmation',
  enabled: 'On or off',
  granted: 'The choice',
  from: 'The from date',
  to: 'The to date',
  page: 'The page',
  path: 'The image',
  lines: 'The invoice lines',
  mobile: 'Mobile no.',
  entity: 'Record type',
  selected: 'Status',
  razorpay_order_id: 'The payment order',
  razorpay_payment_id: 'The payment',
  razorpay_signature: "The payment's signature",
};

/**
 * A field as the screens name it: a key's own name when it has one, a key's words
 * ("reference" → "Reference", "businessAccountId" → "Business account id"), and a name
 * already in words ("Start date", "PAN") as it is.
 */
export function fieldName(key: string): string {
  const named = FIELD_NAMES[key];
  if (named) return named;
  if (!/^[a-z][A-Za-z0-9_]*$/.test(key)) return key;
  const words = key
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One answer for a refused request: each check's sentence once. A message that is no sentence
 * (the library's own) says which field is missing or not of the kind it takes.
 */
export function refusalMessage(
  issues: readonly { path: readonly (string | number)[]; message: string }[],
): string {
  const sentences = issues.map(({ path, message }) => {
    if (message.endsWith('.')) return message;
    const key = [...path].reverse().find((part) => typeof part === 'string');
    return key === undefined
      ? 'The request is not a form Kanak can read.'
      : `${fieldName(key)} is missing or not what it should be.`;
  });
  return [...new Set(sentences)].join(' ');
}
