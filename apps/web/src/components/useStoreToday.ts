import { DEFAULT_STORE_TIMEZONE, todayIn } from '@kanak/contract';
import { useBranding } from '../lib/branding';

/** Today's date in the store's time zone, `YYYY-MM-DD`, whatever the computer's. */
export function useStoreToday(): string {
  const { branding } = useBranding();
  return todayIn(branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE);
}
