import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';

/** Mobile Integration (/home/mobile-app): banner and e-catalogue images. */
export function MobileAppPage() {
  return <PageHeader title={PAGE_TITLES.mobileApp} />;
}
