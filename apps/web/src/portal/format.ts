import { DEFAULT_STORE_TIMEZONE, formatSlashDate } from '@kanak/contract';

/** en-IN display: 1,23,456 points; dates DD/MM/YYYY; gold to the milligram. */
export const formatPoints = (points: number) => points.toLocaleString('en-IN');
export const formatDate = (isoDate: string | null) => (isoDate ? formatSlashDate(isoDate) : '');
export const formatGrams = (grams: number) =>
  grams.toLocaleString('en-IN', { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** Today at the shop (YYYY-MM-DD), whatever the phone's own time zone. */
export const shopToday = (timeZone = DEFAULT_STORE_TIMEZONE) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

/** `YYYY-MM-DD` moved on by `days` days. */
export const daysAfter = (isoDate: string, days: number) => {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};
