import { datedFileName } from '../format.js';
import { fieldName } from '../refusals.js';
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { dataResponse, fromNotAfterTo, fromNotAfterToRule, optionalIsoDate } from './common.js';
import { INSTALLMENT_MODES, type InstallmentMode } from './schemes.js';

/**
 * The owner's view: the dashboard and the reports behind its figures. Owners see the whole
 * chain or one branch; a manager always sees their own branch, whatever `branch` says.
 * Rupees are numbers (installments are whole rupees; a redemption's value has paise when a
 * point is worth paise), points whole numbers, dates `YYYY-MM-DD` in the store's time zone.
 */

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A branch's code, any case; left empty, the whole chain. */
const branchFilter = z.preprocess(
  emptyToUndefined,
  z
    .string({ error: 'Branch must be a branch code of 2 to 6 letters.' })
    .trim()
    .regex(/^[A-Za-z]{2,6}$/, { error: 'Branch must be a branch code of 2 to 6 letters.' })
    .transform((code) => code.toUpperCase())
    .optional(),
);

/** The dashboard's query: `?branch=MAIN`, or nothing for the whole chain. */
export const dashboardQuery = z.object({ branch: branchFilter });
export type DashboardQuery = z.input<typeof dashboardQuery>;

/**
 * Rupees by installment mode, every mode present (0 when none). An object with a property per
 * mode, not a record keyed by the modes: the same type, and its JSON Schema (the API docs, the
 * clients generated from them) then names each mode the answer carries.
 */
const rupeesByMode = z.object(
  Object.fromEntries(INSTALLMENT_MODES.map((mode) => [mode, z.number()])) as Record<
    InstallmentMode,
    z.ZodNumber
  >,
);

/** Installments received: rupees, how many, and rupees by mode. */
export const collectionsFigure = z.object({
  amount: z.number(),
  installments: z.number(),
  byMode: rupeesByMode,
});
export type CollectionsFigure = z.infer<typeof collectionsFigure>;

/**
 * Points issued are those credited by sales and by staff, less those taken back by returns;
 * redeemed are those spent at the counter (less cancelled redemptions) and deducted by staff;
 * expired those the expiry took. Issued − redeemed − expired is the change in points
 * outstanding over the same days.
 */
export const dashboardData = z.object({
  today: z.object({ collections: collectionsFigure, pointsIssued: z.number() }),
  /** This calendar month so far, and the whole of the month before. */
  month: z.object({
    collections: collectionsFigure,
    collectionsLastMonth: collectionsFigure,
    pointsIssued: z.number(),
    pointsIssuedLastMonth: z.number(),
  }),
  /** Points customers hold (for a branch: those it gave), and their value at today's rules. */
  points: z.object({ outstanding: z.number(), value: z.number() }),
  /** Customers per tier that applies today, every tier listed; left out while none are set. */
  tiers: z
    .array(z.object({ code: z.string(), name: z.string(), customers: z.number() }))
    .optional(),
  schemes: z.object({
    /** Active schemes (started at the branch, for one branch). */
    active: z.number(),
    /** Rupees a month still promised: the amounts of active schemes with installments to pay. */
    monthlyCommitment: z.number(),
    /** Active schemes maturing from today to 30 days ahead, both days included. */
    maturingIn30Days: z.number(),
    /** Installments overdue (unpaid 7 days after they were due) and their rupees. */
    overdueCount: z.number(),
    overdueAmount: z.number(),
    /** The gold the shop owes: milligrams in running weight schemes, by plan; absent when none. */
    goldHeld: z.array(z.object({ plan: z.string(), name: z.string(), mg: z.number() })).optional(),
  }),
  /** The last 12 calendar months, oldest first, this month last; one number per month. */
  series: z.object({
    months: z.array(z.string()),
    pointsIssued: z.array(z.number()),
    pointsRedeemed: z.array(z.number()),
    pointsExpired: z.array(z.number()),
    collections: z.array(z.number()),
  }),
});
export type DashboardData = z.infer<typeof dashboardData>;
export const dashboardResponse = dataResponse(dashboardData);

/** An installment the signed-in staff member took today, with its receipt. */
export const myDayInstallment = z.object({
  /** HH:MM, store time. */
  time: z.string(),
  receipt: z.string(),
  schemeid: z.number(),
  custname: z.string(),
  mobileno: z.string(),
  mode: z.string(),
  amount: z.number(),
});
export type MyDayInstallment = z.infer<typeof myDayInstallment>;
/** The counter home's day: today's date and the caller's own installments, in the order taken. */
export const myDayData = z.object({
  date: z.string(),
  installments: z.array(myDayInstallment),
  totals: z.object({ installments: z.number(), amount: z.number() }),
});
export type MyDayData = z.infer<typeof myDayData>;
export const myDayResponse = dataResponse(myDayData);

/** The reports, as their paths end: `POST /api/reports/<name>`. */
export const REPORT_NAMES = [
  'collections',
  'overdue',
  'maturing',
  'points-liability',
  'unrecovered',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

const pageRule = `The page must be a whole number from 1 to ${LIMITS.reportMaxPages.toLocaleString('en-IN')}.`;
const pageSizeRule = `Rows per page must be a whole number from 1 to ${LIMITS.reportPageSizeMax}.`;
const wholeNumber = (rule: string, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .number({ error: rule })
      .int({ error: rule })
      .min(1, { error: rule })
      .max(max, { error: rule })
      .default(fallback),
  );

/**
 * How the collections report picks its installments: by the day each is dated (the payment's
 * date, the default) or by the day it was entered, whatever date it was given.
 */
export const COLLECTIONS_BY = ['dated', 'entered'] as const;
export type CollectionsBy = (typeof COLLECTIONS_BY)[number];

/**
 * Every report's request. Which dates a report reads:
 * - collections: `from`–`to`, the days of payment (default: today; `to` alone is that day), or
 *   with `by: "entered"` the days the installments were entered;
 * - overdue: `asOf`, the day overdue is judged on (default today; never before today, as it
 *   counts the installments paid so far);
 * - maturing: `from`–`to`, the maturity dates (default: today to 30 days ahead);
 * - points-liability: none (the points held now);
 * - unrecovered: `from`–`to`, the return dates (default: all).
 * A date a report does not read is refused (400), rather than silently ignored.
 * `format: "csv"` answers the whole report as a CSV file (UTF-8, byte-order mark first),
 * ignoring `page` and `pageSize`.
 */
export const reportRequest = z
  .object({
    from: optionalIsoDate('from'),
    to: optionalIsoDate('to'),
    asOf: optionalIsoDate('asOf'),
    by: z.preprocess(
      emptyToUndefined,
      z
        .enum(COLLECTIONS_BY, { error: 'Choose the days installments are dated or entered.' })
        .optional(),
    ),
    branch: branchFilter,
    page: wholeNumber(pageRule, LIMITS.reportMaxPages, 1),
    pageSize: wholeNumber(pageSizeRule, LIMITS.reportPageSizeMax, LIMITS.reportPageSize),
    format: z.preprocess(
      emptyToUndefined,
      z.enum(['json', 'csv'], { error: 'Format must be json or csv.' }).default('json'),
    ),
  })
  .refine(fromNotAfterTo, fromNotAfterToRule);
export type ReportRequest = z.input<typeof reportRequest>;
export type ReportFilter = z.output<typeof reportRequest>;

/** The dates each report reads; the others are refused. */
export const REPORT_DATES: Record<ReportName, readonly ('from' | 'to' | 'asOf')[]> = {
  collections: ['from', 'to'],
  overdue: ['asOf'],
  maturing: ['from', 'to'],
  'points-liability': [],
  unrecovered: ['from', 'to'],
};

/** The request of one report: the common one, refusing the dates this report does not read. */
export const reportRequestFor = (report: ReportName) =>
  reportRequest.superRefine((filter, context) => {
    for (const field of ['from', 'to', 'asOf'] as const) {
      if (filter[field] !== undefined && !REPORT_DATES[report].includes(field))
        context.addIssue({
          code: 'custom',
          path: [field],
          message: REPORT_MESSAGES.dateNotRead(report, field),
        });
    }
    if (filter.by !== undefined && report !== 'collections')
      context.addIssue({ code: 'custom', path: ['by'], message: REPORT_MESSAGES.byNotRead });
  });

/** A report's answer: one page of rows, how many rows in all, and the totals of all of them. */
const reportResponse = <Row extends z.ZodType, Totals extends z.ZodType>(
  row: Row,
  totals: Totals,
) => dataResponse(z.array(row)).extend({ total: z.number(), totals });

/** What a cash-book row records. */
export const COLLECTION_KINDS = ['installment', 'redemption', 'redemptionCancelled'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];
/** An installment's mode, or points for a redemption at the counter. */
export const COLLECTION_MODES = [...INSTALLMENT_MODES, 'points'] as const;

export const collectionRow = z.object({
  /** The day of the payment (an installment's date; a redemption's day in store time). */
  date: z.string(),
  /** When it was recorded, HH:MM in store time. */
  time: z.string(),
  /** The branch's code. */
  branch: z.string(),
  /**
   * Who took it: the staff member's name (an installment, or points redeemed on the Redeem
   * Points screen), or the counter's API key label for a redemption its billing system posted.
   */
  staff: z.string(),
  kind: z.enum(COLLECTION_KINDS),
  /**
   * The installment's receipt number, or the invoice number of a redemption (empty when staff
   * redeemed without naming a bill).
   */
  receipt: z.string(),
  /** The scheme of an installment; null for a redemption. */
  schemeid: z.number().nullable(),
  custname: z.string(),
  mobileno: z.string(),
  mode: z.enum(COLLECTION_MODES),
  /** Rupees: an installment's amount, a redemption's value (negative when cancelled). */
  amount: z.number(),
  /** Points redeemed (negative when given back by a cancel); null for an installment. */
  points: z.number().nullable(),
  /**
   * The day it was entered, in store time: an installment dated earlier than this was
   * backdated; a redemption is entered the day it is made.
   */
  enteredOn: z.string(),
  /**
   * Points redeemed by staff: their points ledger entry (the statement's MRN), which tells two
   * of them apart when they name the same bill or none; absent on other rows.
   */
  entry: z.number().optional(),
});
export type CollectionRow = z.infer<typeof collectionRow>;
/** What reconciles the till: installment rupees by mode, and the points redeemed. */
export const collectionsTotals = z.object({
  installments: z.number(),
  /** Rupees received in installments, all modes. */
  collected: z.number(),
  byMode: rupeesByMode,
  /** Redemptions made: posted by the counters' billing systems and made by staff alike. */
  redemptions: z.number(),
  /** Cancels of the billing systems' redemptions made on the days (staff redemptions have none). */
  cancelledRedemptions: z.number(),
  /** Points redeemed less those given back by cancels, and their value in rupees. */
  pointsRedeemed: z.number(),
  redeemedValue: z.number(),
  /** Of the installments, those entered on a later day than they are dated. */
  backdated: z.number(),
});
export const collectionsReportResponse = reportResponse(collectionRow, collectionsTotals);

/**
 * An active scheme with installments overdue on `asOf`: installment k (k = 0 … n−1) is due on
 * the start date plus k months, the first `paid` of them are paid, and one unpaid 7 days after
 * its due date is overdue. A scheme past its maturity date is left out: its installments can
 * no longer be paid (it waits to be closed, and the maturing report lists it). Oldest first.
 */
export const overdueRow = z.object({
  schemeid: z.number(),
  mobileno: z.string(),
  custname: z.string(),
  /** Installments overdue. */
  monthsDue: z.number(),
  /** monthsDue × the scheme's monthly amount, rupees. */
  amountDue: z.number(),
  /** Days since the oldest unpaid installment was due. */
  daysOverdue: z.number(),
  /** The date of the latest installment paid; null when none. */
  lastPaid: z.string().nullable(),
});
export type OverdueRow = z.infer<typeof overdueRow>;
export const overdueTotals = z.object({
  schemes: z.number(),
  installments: z.number(),
  amount: z.number(),
});
export const overdueReportResponse = reportResponse(overdueRow, overdueTotals);

/** An active scheme maturing within the dates asked, soonest first. */
export const maturingRow = z.object({
  schemeid: z.number(),
  custname: z.string(),
  mobileno: z.string(),
  branch: z.string(),
  startdt: z.string(),
  matdt: z.string(),
  installmentsPaid: z.number(),
  installments: z.number(),
  /** Rupees paid in so far. */
  amountPaid: z.number(),
  /** A weight scheme's gold so far, in milligrams. */
  mg: z.number().optional(),
});
export type MaturingRow = z.infer<typeof maturingRow>;
export const maturingTotals = z.object({ schemes: z.number(), amountPaid: z.number() });
export const maturingReportResponse = reportResponse(maturingRow, maturingTotals);

/**
 * A customer holding points, most points first. For one branch, the points of the lots it gave
 * that are still unspent; for the chain, the customer's balance (the two add up the same).
 */
export const pointsLiabilityRow = z.object({
  custid: z.number(),
  custname: z.string(),
  mobileno: z.string(),
  points: z.number(),
  /** Rupees, at the point value of the rules in force. */
  value: z.number(),
  /** Of those points, the ones expiring from today to 30 days ahead. */
  expiringIn30Days: z.number(),
});
export type PointsLiabilityRow = z.infer<typeof pointsLiabilityRow>;
export const pointsLiabilityTotals = z.object({
  customers: z.number(),
  points: z.number(),
  value: z.number(),
  expiringIn30Days: z.number(),
});
export const pointsLiabilityReportResponse = reportResponse(
  pointsLiabilityRow,
  pointsLiabilityTotals,
);

/** A return whose points could not all be taken back (already spent), newest first. */
export const unrecoveredRow = z.object({
  returnDate: z.string(),
  branch: z.string(),
  returnNo: z.string(),
  invoiceNo: z.string().nullable(),
  mobile: z.string().nullable(),
  unrecovered: z.number(),
});
export const unrecoveredTotals = z.object({ returns: z.number(), unrecovered: z.number() });
export const unrecoveredReportResponse = reportResponse(unrecoveredRow, unrecoveredTotals);

/** With `format: "csv"`: the CSV text itself (UTF-8, byte-order mark first), not an envelope. */
export const reportCsvResponse = z.string();

/** Each report's CSV: its file name and columns (amounts as plain numbers, dates DD/MM/YYYY). */
export const REPORT_CSV = {
  collections: {
    fileName: 'collections.csv',
    columns: [
      'Date',
      'Time',
      'Branch',
      'Staff',
      'Kind',
      'Receipt / invoice',
      'Scheme ID',
      'Customer',
      'Mobile',
      'Mode',
      'Amount',
      'Points',
      'Entered on',
      'Backdated',
    ],
  },
  overdue: {
    fileName: 'overdue-installments.csv',
    columns: [
      'Scheme ID',
      'Mobile',
      'Customer',
      'Months due',
      'Amount due',
      'Days overdue',
      'Last paid',
    ],
  },
  maturing: {
    fileName: 'maturing-schemes.csv',
    columns: [
      'Scheme ID',
      'Customer',
      'Mobile',
      'Branch',
      'Start date',
      'Maturity date',
      'Installments paid',
      'Installments',
      'Amount paid',
    ],
  },
  'points-liability': {
    fileName: 'points-liability.csv',
    columns: ['Customer ID', 'Customer', 'Mobile', 'Points', 'Value', 'Expiring in 30 days'],
  },
  unrecovered: {
    fileName: 'unrecovered-returns.csv',
    columns: ['Return date', 'Branch', 'Return no.', 'Invoice no.', 'Mobile', 'Unrecovered points'],
  },
} as const satisfies Record<ReportName, { fileName: string; columns: readonly string[] }>;

/**
 * A report's CSV file name with the dates it covers (`collections-2026-11-26.csv`); a report
 * of no dates, or of one day's standing, is named for that day (`today` when none is asked).
 * The cash book by the days entered says so (`collections-entered-2026-11-26.csv`).
 */
export function reportCsvFileName(
  name: ReportName,
  filter: {
    from?: string | undefined;
    to?: string | undefined;
    asOf?: string | undefined;
    by?: CollectionsBy | undefined;
  },
  today: string,
): string {
  const base =
    REPORT_CSV[name].fileName.replace(/\.csv$/, '') + (filter.by === 'entered' ? '-entered' : '');
  const asOf = filter.asOf ?? (filter.from || filter.to ? undefined : today);
  return datedFileName(base, asOf ? { from: asOf } : filter, today);
}

/** How a cash-book row's kind and mode read on screen and in the CSV. */
export const COLLECTION_KIND_LABELS: Record<CollectionKind, string> = {
  installment: 'Installment',
  redemption: 'Points redeemed',
  redemptionCancelled: 'Redemption cancelled',
};
export const COLLECTION_MODE_LABELS: Record<InstallmentMode | 'points', string> = {
  cash: 'Cash',
  upi: 'UPI',
  card: 'Card',
  bank: 'Bank transfer',
  cheque: 'Cheque',
  online: 'Online',
  points: 'Points',
};

/** What the reports answer when they refuse. */
export const REPORT_MESSAGES = {
  byNotRead: 'Dated or entered days apply only to the collections report.',
  unknownBranch: (code: string) => `Branch ${code} is not one of the shop's branches.`,
  dateNotRead: (report: ReportName, field: 'from' | 'to' | 'asOf') =>
    REPORT_DATES[report].length === 0
      ? `${fieldName(field)} does not apply to the ${report} report: it shows the points held now.`
      : `${fieldName(field)} does not apply to the ${report} report; use ${REPORT_DATES[report].map((date) => fieldName(date).toLowerCase()).join(' and ')}.`,
  asOfBeforeToday:
    'As of date must not be before today: overdue is judged on the installments paid so far.',
} as const;
