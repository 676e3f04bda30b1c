/** Calendar dates as `YYYY-MM-DD` text, the payload format everywhere. No time zones inside. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date such as 2024-02-29; false for 2025-02-30 or 2025-2-3. */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Formatters by time zone: building one costs far more than using it (it showed in profiles). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date in the store's time zone (Asia/Kolkata by default), as `YYYY-MM-DD`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The day `months` calendar months after `isoDate` (the 31st becomes the month's last day). */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The month after `month` (both YYYY-MM): the month an installment taken in advance is for. */
export function monthAfter(month: string): string {
  const year = Number(month.slice(0, 4));
  const next = Number(month.slice(5, 7)) + 1;
  return next > 12 ? `${year + 1}-01` : `${year}-${String(next).padStart(2, '0')}`;
}

/** A month (YYYY-MM) as receipts and messages name it: MM-YYYY. */
export const formatMonth = (month: string) => `${month.slice(5, 7)}-${month.slice(0, 4)}`;

/** First day (1 April) of the Indian financial year that holds `isoDate`. */
export function financialYearStart(isoDate: string): string {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  return `${month >= 4 ? year : year - 1}-04-01`;
}
