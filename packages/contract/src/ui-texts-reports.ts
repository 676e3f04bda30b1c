import type { ReportName } from './schemas/reports.js';
import { PAGE_TITLES } from './ui-texts-screens.js';

/** The Dashboard: the owner's figures at a glance; each opens the report behind it. */
export const DASHBOARD_TEXTS = {
  loading: 'Loading the dashboard',
  loadFailed: 'Error in loading the dashboard.',
  branch: 'Branch',
  wholeChain: 'All branches',
  today: 'Today',
  thisMonth: 'This month',
  lastMonth: (amount: string) => `Last month ${amount}`,
  todayFigure: (figure: string) => `Today ${figure}`,
  collections: 'Installments collected',
  installments: (count: string) => `${count} installments`,
  pointsIssued: 'Points issued',
  pointsOutstanding: 'Points outstanding',
  pointsWorth: (rupees: string) => `worth ${rupees}`,
  activeSchemes: 'Active schemes',
  monthlyCommitment: (rupees: string) => `${rupees} a month`,
  maturing: 'Maturing in 30 days',
  overdue: 'Overdue installments',
  overdueAmount: (rupees: string) => `${rupees} overdue`,
  goldHeld: 'Gold owed in weight schemes',
  goldOfPlan: (plan: string, grams: string) => `${plan} ${grams} g`,
  tiers: 'Customers in a tier',
  tierCustomers: (tier: string, customers: string) => `${tier} ${customers}`,
  chartPoints: 'Points by month',
  chartCollections: 'Installments collected by month',
  /** Under a chart's heading: the months it covers, with their years. */
  chartSpan: (from: string, to: string) => `${from} – ${to}`,
  chartEmpty: 'Nothing recorded in these 12 months.',
  seriesIssued: 'Issued',
  seriesRedeemed: 'Redeemed',
  seriesExpired: 'Expired',
  seriesCollections: 'Collected (₹)',
  openReport: (report: string) => `Open the ${report} report`,
} as const;

/**
 * The dashboard's list of payments made online that bought no installment: each is refunded
 * from the gateway's dashboard, then noted here with the gateway's refund id.
 */
export const ONLINE_REFUND_TEXTS = {
  heading: 'Online payments to refund',
  intro:
    "Each bought no installment. Refund it from Razorpay's dashboard, then note it here with Razorpay's refund id.",
  table: 'Online payments to refund',
  customer: 'Customer',
  scheme: 'Scheme',
  forMonth: 'For month',
  amount: 'Amount',
  paidOn: 'Paid on',
  reason: 'Why',
  reasons: {
    monthPaid: 'Month paid at the counter',
    paidTwice: 'Paid twice',
    amountMismatch: 'Amount differs from the installment',
  },
  mismatch: (received: string, expected: string) =>
    `Received ${received}, expected ${expected} — not recorded as an installment; refund or settle it.`,
  branch: 'Branch',
  action: 'Refund',
  markRefunded: 'Mark refunded',
  markRefundedOf: (paymentId: string) => `Mark payment ${paymentId} refunded`,
  confirmTitle: (paymentId: string) => `Refunded ${paymentId}?`,
  confirmQuestion: (amount: string, custname: string) =>
    `Note the refund of ${amount} to ${custname}. Do this only once Razorpay shows the refund.`,
  reference: "Razorpay's refund id",
  cancel: 'CANCEL',
  confirm: 'NOTE REFUND',
  saving: 'Noting the refund',
  loading: 'Loading the payments to refund',
  loadFailed: 'Error in loading the payments to refund.',
  saveFailed: 'Error in noting the refund.',
} as const;

/** The Reports screens: one title, intro and empty text per report, and the shared filters. */
export const REPORT_TEXTS = {
  sidebar: 'Reports',
  filters: 'Filters',
  from: 'From',
  to: 'To',
  asOf: 'As of',
  /** The cash book's installments by the day they are dated, or by the day they were entered. */
  by: 'Installments by',
  byOptions: { dated: 'Date paid', entered: 'Day entered' },
  printByEntered: 'Installments by the day entered',
  /** A cash-book row entered on a later day than it is dated. */
  backdated: 'Backdated',
  enteredOn: (date: string) => `entered ${date}`,
  branch: 'Branch',
  wholeChain: 'All branches',
  search: 'Show',
  clear: 'Clear',
  print: 'Print',
  csv: 'Download CSV',
  csvPending: 'Preparing CSV',
  csvFailed: 'Could not download the report. Please try again.',
  loadFailed: 'Could not load the report. Please try again.',
  totals: 'Totals',
  loading: 'Loading the report',
  printing: 'Preparing the printout',
  /** The filter as a printout states it (dates DD/MM/YYYY). */
  printDates: (from: string, to: string) => (from === to ? from : `${from} to ${to}`),
  printAsOf: (date: string) => `As of ${date}`,
  printAllDates: 'All dates',
  printBranch: (code: string) => `Branch ${code}`,
  /** A printout holds at most one large page of rows; the CSV always holds them all. */
  printPart: (shown: number, total: number) =>
    `The first ${shown.toLocaleString('en-IN')} of ${total.toLocaleString('en-IN')} rows; the CSV holds them all.`,
  installmentsOf: (paid: number, of: number) => `${paid} of ${of}`,
  pageOf: (page: number, pages: number, total: number) =>
    `Page ${page} of ${pages} · ${total.toLocaleString('en-IN')} rows`,
  reports: {
    collections: {
      title: PAGE_TITLES.collectionsReport,
      intro:
        'The cash book: every installment and points redemption of the days chosen, by branch, counter and staff, with the totals by mode to reconcile the till.',
      empty: 'Nothing was collected or redeemed on these days.',
    },
    overdue: {
      title: PAGE_TITLES.overdueReport,
      intro:
        'Active schemes with an installment still unpaid 7 days after it was due, the longest overdue first.',
      empty: 'No installments are overdue.',
    },
    maturing: {
      title: PAGE_TITLES.maturingReport,
      intro: 'Active schemes maturing between the dates chosen (the next 30 days unless changed).',
      empty: 'No schemes mature on these dates.',
    },
    'points-liability': {
      title: PAGE_TITLES.pointsLiabilityReport,
      intro:
        'Customers holding points, the most first: their value at the points rules in force, and what expires within 30 days.',
      empty: 'No customer holds points.',
    },
    unrecovered: {
      title: PAGE_TITLES.unrecoveredReturns,
      intro:
        'Returns whose points could not be taken back because the customer had already spent them, newest first.',
      empty: 'No unrecovered returns.',
    },
  } satisfies Record<ReportName, { title: string; intro: string; empty: string }>,
  columns: {
    dateTime: 'Date / time',
    branchStaff: 'Branch / staff',
    kind: 'Kind',
    receipt: 'Receipt / invoice',
    schemeid: 'Scheme ID',
    custname: 'Customer',
    customerMobile: 'Customer / mobile',
    branch: 'Branch',
    mobileno: 'Mobile',
    custid: 'Customer ID',
    mode: 'Mode',
    amount: 'Amount',
    points: 'Points',
    monthsDue: 'Months due',
    amountDue: 'Amount due',
    daysOverdue: 'Days overdue',
    lastPaid: 'Last paid',
    startdt: 'Start date',
    matdt: 'Maturity date',
    installmentsPaid: 'Installments paid',
    amountPaid: 'Amount paid',
    value: 'Value',
    expiringIn30Days: 'Expiring in 30 days',
    returnDate: 'Return date',
    returnNo: 'Return no.',
    invoiceNo: 'Invoice no.',
    unrecovered: 'Unrecovered points',
  },
  totalsLabels: {
    installments: 'Installments',
    collected: 'Collected',
    redemptions: 'Redemptions',
    cancelledRedemptions: 'Cancelled redemptions',
    pointsRedeemed: 'Points redeemed',
    redeemedValue: 'Value redeemed',
    backdated: 'Backdated',
    schemes: 'Schemes',
    amount: 'Amount',
    customers: 'Customers',
    points: 'Points',
    value: 'Value',
    returns: 'Returns',
  },
  neverPaid: 'Never',
} as const;

/** The counter home: where a cashier's day starts, with a customer. */
export const COUNTER_TEXTS = {
  search: 'Customer mobile number or name',
  actions: 'Quick actions',
  creditPoints: 'Credit points',
  takeInstallment: 'Take an installment',
  startScheme: 'Start a scheme',
  redeemPoints: 'Redeem points',
  chosen: (name: string, mobile: string) => `${name}, ${mobile}`,
  today: 'Your installments today',
  none: 'You have taken no installments today.',
  columns: {
    time: 'Time',
    receipt: 'Receipt',
    schemeid: 'Scheme ID',
    customer: 'Customer',
    mode: 'Mode',
    amount: 'Amount',
  },
  totals: (installments: number, amount: string) =>
    `${installments} ${installments === 1 ? 'installment' : 'installments'}, ${amount}`,
  failed: 'Your installments of today could not be read.',
} as const;
