import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';

/** Points Statement (/home/statement): the points ledger for a date range. */
export function PointsStatementPage() {
  return <PageHeader title={PAGE_TITLES.statement} />;
}
