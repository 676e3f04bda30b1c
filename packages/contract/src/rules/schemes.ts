import { addDays, addMonths, monthAfter } from '../dates.js';
import { DEFAULT_GRACE_DAYS, MATURITY_DAYS } from '../limits.js';

/*
 * A savings scheme's own rules, written once: the server enforces them, the staff screens and
 * the customers' portal offer only what they allow. Dates are `YYYY-MM-DD`, months `YYYY-MM`.
 */

/** Where a scheme stands, as its rules need it. */
export interface SchemeStanding {
  /** Activated by its first installment, and neither closed nor cancelled. */
  active: boolean;
  /** Installments of its term. */
  installments: number;
  /** Installments paid so far. */
  paid: number;
  /** Its maturity date. */
  matdt: string;
}

/** The day installment `k` (0 … n−1) falls due: the start plus k calendar months. */
export const installmentDueOn = (startdt: string, k: number) => addMonths(startdt, k);

/** Which installment (0 … n−1) the one for `month` is, counted from the start's month. */
export const installmentIndex = (startdt: string, month: string) =>
  monthNumber(month) - monthNumber(startdt);

/** The day the installment for `month` falls due. */
export const monthDueOn = (startdt: string, month: string) =>
  installmentDueOn(startdt, installmentIndex(startdt, month));

/**
 * An installment's number on receipts, statements and the passbook: its place among those
 * paid, in the order paid (1, 2, …), not its month's place in the term, since a month skipped
 * is never paid and leaves no gap in the numbers.
 */
export const installmentNumber = (paidBefore: number) => paidBefore + 1;

const monthNumber = (isoDateOrMonth: string) =>
  Number(isoDateOrMonth.slice(0, 4)) * 12 + Number(isoDateOrMonth.slice(5, 7));

/** A standard scheme's maturity: 364 days after its start (a customer advance ends in 365). */
export const standardMaturity = (startdt: string) => addDays(startdt, MATURITY_DAYS);

/**
 * A plan scheme's maturity: a month after its last installment falls due, and never past a
 * standard scheme's.
 */
export function planMaturity(startdt: string, installments: number) {
  const monthAfterLast = addDays(addMonths(startdt, installments), -1);
  const latest = standardMaturity(startdt);
  return monthAfterLast < latest ? monthAfterLast : latest;
}

/** The maturity date a record shows: its own, or (an old record without one) the standard. */
export const maturityOf = (scheme: { startdt: string; matdt: string | null | undefined }) =>
  scheme.matdt || standardMaturity(scheme.startdt);

/**
 * A scheme's grace: its plan's, or for the standard scheme (no plan) the default. One grace
 * judges both whether an installment was paid late and from when an unpaid one is overdue.
 */
export const graceDaysOf = (plan: { graceDays: number } | null | undefined) =>
  plan ? plan.graceDays : DEFAULT_GRACE_DAYS;

/**
 * The first day an installment due on `dueOn` is overdue while unpaid: `graceDays` after it
 * (with no grace, the due day itself).
 */
export const overdueFrom = (dueOn: string, graceDays: number) => addDays(dueOn, graceDays);

/** The last due day whose installment, still unpaid, is overdue on `asOf` after `graceDays`. */
export const overdueCutoff = (asOf: string, graceDays: number) => addDays(asOf, -graceDays);

/**
 * Whether the installment for `month`, paid on `paidOn`, was late: paid more than `graceDays`
 * after that month's due day. Judged by its own month, so a month skipped makes no later
 * installment late; it is simply never paid.
 */
export const paidLate = (startdt: string, month: string, paidOn: string, graceDays: number) =>
  paidOn > addDays(monthDueOn(startdt, month), graceDays);

/** Takes installments at all: active, with some still unpaid, and not past its maturity. */
export const takesInstallments = (scheme: SchemeStanding, today: string) =>
  scheme.active && scheme.paid < scheme.installments && today <= scheme.matdt;

/**
 * The months an installment may be taken for today. Each month of the term holds one
 * installment: today's month, or (once it is paid) the next month's in advance, when that
 * month is unpaid and within the term. Never more than one month ahead.
 */
export function payableMonths(
  scheme: SchemeStanding,
  paidMonths: readonly string[],
  today: string,
) {
  const thisMonth = today.slice(0, 7);
  const nextMonth = monthAfter(thisMonth);
  const open = takesInstallments(scheme, today);
  const thisMonthPaid = paidMonths.includes(thisMonth);
  const nextMonthPaid = paidMonths.includes(nextMonth);
  return {
    thisMonth,
    nextMonth,
    open,
    thisMonthPaid,
    nextMonthPaid,
    mayTakeThisMonth: open && !thisMonthPaid,
    mayTakeAdvance:
      open && thisMonthPaid && !nextMonthPaid && nextMonth <= scheme.matdt.slice(0, 7),
  };
}

/** The month the next installment paid today is for, or null when none may be paid today. */
export function nextPayableMonth(
  scheme: SchemeStanding,
  paidMonths: readonly string[],
  today: string,
): string | null {
  const months = payableMonths(scheme, paidMonths, today);
  if (months.mayTakeThisMonth) return months.thisMonth;
  return months.mayTakeAdvance ? months.nextMonth : null;
}

/** The first day of the month after `isoDate`'s. */
const firstOfNextMonth = (isoDate: string) => `${monthAfter(isoDate.slice(0, 7))}-01`;

/**
 * The month of the next installment the rules offer, and whether it may be paid today: the one
 * payable today, or else the first that becomes payable on a later month's first day within
 * the term. Null once none ever will be (not active, fully paid, or past the term).
 */
export function nextOfferedMonth(
  scheme: SchemeStanding,
  paidMonths: readonly string[],
  today: string,
): { month: string; payableToday: boolean } | null {
  const now = nextPayableMonth(scheme, paidMonths, today);
  if (now !== null) return { month: now, payableToday: true };
  for (
    let first = firstOfNextMonth(today);
    first <= scheme.matdt;
    first = firstOfNextMonth(first)
  ) {
    const month = nextPayableMonth(scheme, paidMonths, first);
    if (month !== null) return { month, payableToday: false };
  }
  return null;
}

/** Why the month asked for cannot take the installment. */
export type InstallmentMonthRefusal =
  'monthTaken' | 'advanceBeforeThisMonth' | 'advancePastTerm' | 'advanceTaken';

/**
 * The month an installment paid on `date` is for: the one named, or the date's month, or
 * (taken in advance) the month after it once the date's month is paid; with the reason when
 * that month cannot take it.
 */
export function installmentMonth(
  matdt: string,
  paidMonths: readonly string[],
  date: string,
  asked: { month?: string; advance?: boolean },
): { month: string; refusal?: InstallmentMonthRefusal } {
  const paidFor = (month: string) => paidMonths.includes(month);
  const dateMonth = date.slice(0, 7);
  if (asked.month !== undefined)
    return paidFor(asked.month)
      ? { month: asked.month, refusal: 'monthTaken' }
      : { month: asked.month };
  if (!asked.advance)
    return paidFor(dateMonth) ? { month: dateMonth, refusal: 'monthTaken' } : { month: dateMonth };
  const month = monthAfter(dateMonth);
  if (!paidFor(dateMonth)) return { month, refusal: 'advanceBeforeThisMonth' };
  if (month > matdt.slice(0, 7)) return { month, refusal: 'advancePastTerm' };
  if (paidFor(month)) return { month, refusal: 'advanceTaken' };
  return { month };
}

/** Closable: active, and every installment paid or its maturity date passed. */
export const mayClose = (scheme: SchemeStanding, today: string) =>
  scheme.active && (scheme.paid >= scheme.installments || today > scheme.matdt);

/** What closing pays: the bonus (a share of one installment) and the maturity value. */
export function maturityFigures(
  amount: number,
  paid: number,
  installments: number,
  bonusPercent: number,
) {
  const bonus = Math.floor((amount * bonusPercent * paid) / (100 * installments));
  return { bonus, maturityValue: amount * paid + bonus };
}
