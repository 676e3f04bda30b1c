import { REPORT_TEXTS } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow, ReportTotals } from './api';
import { schemeColumns } from './reportColumns';
import { ReportPage } from './ReportPage';
import type { ReportFooterRow } from './reportParts';

const texts = REPORT_TEXTS;

/** The reports that list schemes, one row each. */
type SchemeReportName = 'maturing' | 'overdue';

interface SchemeReportPageProps<Name extends SchemeReportName> {
  name: Name;
  title: string;
  /** The report's own columns, after the scheme's and the customer's. */
  columns: readonly DataColumn<ReportRow<Name>>[];
  minWidth: number;
  /** The report's totals under their columns (the row is named under the scheme's). */
  totals: (totals: ReportTotals<Name>) => ReportFooterRow['cells'];
}

/**
 * A report of schemes (Maturing Schemes, Overdue Installments): a row per scheme, its customer
 * first, one line of totals, and the schemes counted.
 */
export function SchemeReportPage<Name extends SchemeReportName>({
  name,
  title,
  columns,
  minWidth,
  totals,
}: SchemeReportPageProps<Name>) {
  return (
    <ReportPage
      name={name}
      title={title}
      columns={[...schemeColumns, ...columns]}
      rowKey={(r) => r.schemeid}
      minWidth={minWidth}
      footer={(all) => [{ key: 'totals', cells: { schemeid: texts.totals, ...totals(all) } }]}
      counts={(all) => [[texts.totalsLabels.schemes, all.schemes]]}
    />
  );
}
