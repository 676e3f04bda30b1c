import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';

/** Scheme Summary (/home/scheme-summary): schemes across customers. */
export function SchemeSummaryPage() {
  return <PageHeader title={PAGE_TITLES.schemeSummary} />;
}
