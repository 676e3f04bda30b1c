/**
 * The customer's own side, its limits and words: kept apart from the schemas (zod), so the
 * customer's sign-in page carries these without them.
 */

/** How long a sign-in code lives, and a member's session. */
export const MEMBER_LIMITS = {
  codeLifetimeSeconds: 300,
  codeDigits: 6,
  /** Wrong codes that end a code. */
  codeTries: 5,
  codesPerMinutePerMobile: 1,
  codesPerHourPerMobile: 5,
  codesPerHourPerAddress: 20,
  /** Codes checked, right or wrong, from one address: numbers tried one after another. */
  codeChecksPerHourPerAddress: 30,
  sessionLifetimeSeconds: 30 * 24 * 60 * 60,
  pointsPageSize: 50,
  /** An online order left unpaid this long is asked after by the reconcile job. */
  reconcileAfterMinutes: 15,
  /**
   * Orders a customer may start: a gateway order costs a call to Razorpay and a row the
   * reconcile job asks after, so a script cannot make them without end. Pressing Pay again for
   * the same installment reuses its open order and counts nothing; a fresh order counts against
   * the hour, and at most this many may be open (unpaid, younger than `openOrderHours`) at once.
   */
  ordersPerHourPerCustomer: 10,
  openOrdersPerCustomer: 5,
  openOrderHours: 24,
  /**
   * How long dead sign-in codes and sessions, and the ids of webhook deliveries handled, are
   * kept before the daily purge: a day for codes and sessions (their limits are counted
   * elsewhere, and a missing session is refused like an ended one), a month for deliveries,
   * far past the gateway's day of retries (a payment is recorded once by its id anyway).
   */
  keepDeadCodesAndSessionsDays: 1,
  keepGatewayEventsDays: 30,
} as const;

/** Where the customer's portal keeps its session in the browser: apart from the staff's keys. */
export const MEMBER_STORAGE_KEYS = { token: 'kanak.memberToken' } as const;

export const MEMBER_MESSAGES = {
  /** No code left to try: expired, used, or its tries all spent. */
  wrongCode: 'The code is wrong or has expired. Please ask for a new one.',
  /** A wrong code while the code still has tries: the same code may be typed again. */
  wrongCodeTriesLeft: (tries: number) =>
    `The code is wrong. Please check it and try again: ${tries} ${tries === 1 ? 'try' : 'tries'} left.`,
  tooManyCodes: 'Too many codes asked for. Please try again later.',
  tooManyChecks: 'Too many codes tried. Please try again later.',
  sessionExpired: 'Session expired. Please sign in again.',
  signedOut: 'Signed out.',
  onlinePaymentNotSetUp: 'Online payment is not set up.',
  nothingDue: 'No installment is due on this scheme.',
  gatewayUnavailable: 'The payment gateway could not be reached. Please try again.',
  badPaymentSignature: 'The payment could not be verified.',
  unknownOrder: 'This payment does not belong to any order of yours.',
  paymentRecorded: 'Payment received. Thank you.',
  tooManyOrders: 'Too many payments started in the last hour. Please try again later.',
  tooManyOpenOrders:
    'Several payments you started are not finished yet. Please try again tomorrow, or pay at the shop.',
  /** The sign-in code's text: an authentication message, nothing else in it. */
  codeText: (code: string, shop: string) =>
    `${code} is your ${shop} sign-in code. It is valid for 5 minutes. Do not share it with anyone.`,
} as const;
