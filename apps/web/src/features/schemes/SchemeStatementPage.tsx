import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';

/** Scheme Statement (/home/scheme-statement): one scheme's installments. */
export function SchemeStatementPage() {
  return <PageHeader title={PAGE_TITLES.schemeStatement} />;
}
