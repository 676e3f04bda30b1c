import { REPORT_TEXTS } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { SchemeLink } from '../../components/SchemeLink';

const c = REPORT_TEXTS.columns;

/** The customer of a report's row: their name, then their mobile on one line. */
export const customerColumns: DataColumn<{ custname: string; mobileno: string }>[] = [
  { key: 'custname', header: c.custname, width: 'minmax(140px, 2fr)', cell: (r) => r.custname },
  { key: 'mobileno', header: c.mobileno, width: '104px', nowrap: true, cell: (r) => r.mobileno },
];

/** The first columns of a scheme report: the scheme (its statement a click away) and who holds it. */
export const schemeColumns: DataColumn<{ schemeid: number; custname: string; mobileno: string }>[] =
  [
    {
      key: 'schemeid',
      header: c.schemeid,
      width: '76px',
      cell: (r) => <SchemeLink schemeid={r.schemeid} />,
    },
    ...customerColumns,
  ];
