import { DEFAULT_STORE_TIMEZONE, todayIn } from '@kanak/contract';
import { useBranding } from '../lib/branding';

/** Today's date in the store's time zone, `YYYY-MM-DD`, whatever the computer's. */
export function useStoreToday(): string {
  return todayIn(useStoreTimeZone());
}

/** The store's time zone, in which times of day are shown whatever the computer's zone. */
export function useStoreTimeZone(): string {
  const { branding } = useBranding();
  return branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
}
