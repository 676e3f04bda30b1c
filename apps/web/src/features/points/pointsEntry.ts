import { LEDGER_TEXTS, LIMITS, MESSAGES } from '@kanak/contract';
import type { PointsEntry, PointsFormValues } from './api';

const texts = LEDGER_TEXTS.loyaltyPoints;

/** Loyalty Points takes digits only, as many as the largest number of points has. */
export const POINTS_MAX_DIGITS = String(LIMITS.pointsMax).length;

/** An empty form dated `today`: no customer, no points, no allocation/deduction choice. */
export const blankPointsForm = (today: string): PointsFormValues => ({
  CUSTNAME: '',
  MOBILENO: '',
  POINTS: '',
  NARRATION: '',
  INVDATE: today,
  CASHCR: '',
});

/** Something typed worth keeping when staff leave the screen: a customer, points or a narration. */
export const isStarted = (values: PointsFormValues) =>
  Boolean(values.MOBILENO || values.POINTS || values.NARRATION.trim());

export const formatPoints = (points: number) => points.toLocaleString('en-IN');

/**
 * The entry to send, or the warning that stops it: a mobile number, a points value and a
 * CASHCR choice (and a date) are needed; the spec's warning, then what is missing.
 */
export function readEntry(values: PointsFormValues): PointsEntry | { warning: string } {
  const missing = [
    !values.MOBILENO && texts.missing.customer,
    !values.INVDATE && texts.missing.date,
    !values.CASHCR && texts.missing.entryType,
    !values.POINTS && texts.missing.points,
  ].filter((text) => text !== false);
  if (missing.length > 0 || !values.CASHCR) {
    return { warning: [MESSAGES.requiredFields, ...missing].join(' ') };
  }
  return { ...values, CASHCR: values.CASHCR, NARRATION: values.NARRATION.trim() };
}
