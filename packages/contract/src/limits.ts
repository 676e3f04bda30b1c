/**
 * The business constants and limits.
 * This is the only copy: the server and the web app both import from here.
 */
export const LIMITS = {
  requestTimeoutMs: 15_000,
  /** An import reads and writes a whole file (100,000 rows in about a minute): its own wait. */
  importTimeoutMs: 10 * 60_000,
  requestRetries: 3,
  imagesPerType: 5,
  imageMaxBytes: 5 * 1024 * 1024,
  /** Width × height: a small file may still decode to hundreds of megabytes in a phone. */
  imageMaxPixels: 40_000_000,
  /**
   * An animated GIF's frames: a 5 MB file of tiny frames holds hundreds of thousands, each
   * drawn in turn by every phone that shows the banner. A long offer animation has a few
   * hundred.
   */
  gifMaxFrames: 500,
  /**
   * An animated GIF's frames together, each drawn on the whole screen: a 7.5 KB file declared
   * 500 frames of 6000 × 6000 (18 billion pixels to draw, a phone that keeps every frame
   * decoded needs 72 GB). A long banner animation of 300 frames of 1080 × 540 is 175 million.
   */
  gifMaxAnimationPixels: 200_000_000,
  passwordMaxLength: 15,
  passwordMinLength: 8,
  usernameMaxLength: 30,
  sidebarWidthPx: 250,
  customerSearchPauseMs: 1000,
  customerSearchMaxResults: 20,
  mobileLength: 10,
  aadhaarMaxLength: 16,
  aadhaarDigits: 12,
  panLength: 10,
  pincodeLength: 6,
  customerNameMaxLength: 100,
  emailMaxLength: 254,
  addressMaxLength: 300,
  cityMaxLength: 60,
  stateMaxLength: 60,
  narrationMaxLength: 200,
  pointsMax: 9_999_999,
  schemeAmountMax: 9_999_999,
  amountInputMaxLength: 7,
  panelFieldMaxLength: 200,
  alertAutoHideMs: 3000,
  pointsTableBodyHeightPx: 270,
  pointsTableMinWidthPx: 650,
  summaryTableBodyHeightPx: 280,
  summaryTableMinWidthPx: 700,
  autocompleteMaxHeight: '40vh',
  /** Failed sign-ins on one username from one address that lock that address out of it. */
  loginMaxFailures: 5,
  /**
   * Failed sign-ins on one username from all addresses together that lock it for everyone:
   * far more than one address may make, so a stranger cannot lock the owner out alone.
   */
  loginMaxFailuresFromAllAddresses: 50,
  loginLockMinutes: 15,
  loginAttemptsPerIpPerMinute: 20,
  /**
   * Wrong API keys one address may send to the POS's calls in a window; then every call from
   * it is refused (429) until the window ends, a valid key's too.
   */
  posWrongKeysPerIp: 10,
  posWrongKeysWindowMinutes: 15,
  /** My Profile checks the old password: a stolen session must not try thousands of them. */
  passwordChangeAttemptsPerUserPer15Minutes: 10,
  /** A session's lifetime in seconds: 12 hours, or 30 days with "Stay logged in". */
  tokenLifetimeSeconds: 12 * 60 * 60,
  tokenLifetimeStayLoggedInSeconds: 30 * 24 * 60 * 60,
  idempotencyTtlHours: 24,
  /**
   * A claim still "in progress" after this long was left by a request that died (a crash, a
   * lost database). The web client stops waiting for an answer after 4 attempts of at most
   * 15 s plus backoff (~62 s), and each change is one short transaction: no live request
   * keeps its claim this long.
   */
  idempotencyInterruptedAfterSeconds: 120,
  /** Logout tells the server in the background; the screen never waits longer than this. */
  logoutTimeoutMs: 3000,
  /** Rows on one page of the Scheme Summary screen, and the most one call may ask for. */
  summaryPageSize: 100,
  summaryPageSizeMax: 500,
  /** The furthest page of the summary: a month of a chain's schemes is far fewer rows. */
  summaryMaxPages: 10_000,
  /**
   * The most rows the summary's unpaged call (Print and CSV of the whole filter) answers: about
   * 1.2 MB and 250 printed pages. A wider filter is refused, counted before any row is read;
   * the screen pages through it instead.
   */
  summaryWholeMaxRows: 10_000,
  /** Rows on one page of the Audit screen. */
  auditPageSize: 50,
  /**
   * The Audit screen counts matching changes up to this many: an exact count of ten million
   * rows takes seconds, and nobody pages that far (the filters narrow it instead).
   */
  auditCountCap: 10_000,
  /** auditCountCap / auditPageSize: the furthest page that can hold a row. */
  auditMaxPages: 200,
  /** The Audit CSV holds at most this many changes, newest first. */
  auditCsvMaxRows: 10_000,
  /** A notice template's text: a WhatsApp message stays short. */
  noticeTextMaxLength: 1000,
  /** Rows on one page of the Delivery Log, its count cap and furthest page (as the Audit's). */
  noticesPageSize: 50,
  noticesCountCap: 10_000,
  noticesMaxPages: 200,
  /** Sends of one notice before it is marked failed; the waits between them double. */
  noticeMaxAttempts: 5,
  noticeRetryFirstDelaySeconds: 30,
  /** A provider that has not answered in this long has failed this attempt. */
  noticeSendTimeoutMs: 10_000,
  /** Reminders and digests go only between these hours of store time. */
  noticeDayStartHour: 9,
  noticeDayEndHour: 21,
  /** An installment is reminded this many days before it is due. */
  installmentReminderDays: 3,
  /**
   * How many days before today a cashier or a manager may date a scheme's start, its activation
   * or an installment; only the owner dates one further back, giving a reason of
   * backdateReasonMinLength to narrationMaxLength characters.
   */
  backdateDays: 7,
  backdateReasonMinLength: 3,
  /** Rows on one page of a report unless the screen asks for another size, and the most. */
  reportPageSize: 50,
  reportPageSizeMax: 500,
  /** The furthest page of a report (the CSV holds every row). */
  reportMaxPages: 10_000,
  /** The maturing-schemes report and the dashboard look this many days ahead. */
  maturingWithinDays: 30,
  /** Points expiring within this many days are shown beside a customer's balance. */
  pointsExpiringWithinDays: 30,
  /** The dashboard's charts: this many calendar months, the current one last. */
  dashboardMonths: 12,
} as const;

/** Schemes of this amount or more need a PAN. The PAN dialog says "₹16,000 or above". */
export const PAN_REQUIRED_FROM = 16_000;
/** Maturity is the start date plus this many days (inside the 365-day limit for advances). */
export const MATURITY_DAYS = 364;
/**
 * A plan's grace, unless the owner gives another: the days after an installment's due day
 * within which paying it is not late, and after which, still unpaid, it is overdue. The
 * standard scheme (STD) has this grace.
 */
export const DEFAULT_GRACE_DAYS = 7;
/** Cash received for one scheme must stay below this (Income-tax Act, section 269ST). */
export const CASH_LIMIT_PER_SCHEME = 200_000;

/** The legacy "no date" value: stored as null, shown as empty. */
export const SENTINEL_DATE = '1900-01-01';
export const COUNTRY_PREFIX = '+91';
/** STORE_TIMEZONE's default: "today" is the store's date. */
export const DEFAULT_STORE_TIMEZONE = 'Asia/Kolkata';
export const EXPORT_FILE_NAME = 'customer_list.csv';
export const ACCEPTED_IMAGE_TYPES = ['png', 'jpeg', 'jpg', 'gif', 'webp'] as const;
export const ACCEPTED_IMAGE_MIME = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const PANEL_CHOICES = [1, 2, 3] as const;
export const IMAGE_TYPES = ['banner', 'card'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** Browser storage: keys start with the brand; token and user are separate keys. */
export const STORAGE_KEYS = {
  accessToken: 'kanak.accessToken',
  user: 'kanak.user',
  stayLoggedIn: 'kanak.stayLoggedIn',
} as const;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** What an Idempotency-Key may be: the client's UUIDs, and other callers' keys of that kind. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
