import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';

/** Dashboard (/home): only a header. */
export function DashboardPage() {
  return <PageHeader title={PAGE_TITLES.dashboard} />;
}
