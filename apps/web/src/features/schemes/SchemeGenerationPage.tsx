import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';

/** Scheme Initiation (/home/scheme-generation): start a savings scheme. */
export function SchemeGenerationPage() {
  return <PageHeader title={PAGE_TITLES.schemeGeneration} />;
}
