import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  COLLECTION_MODE_LABELS,
  COUNTER_TEXTS,
  PAGE_TITLES,
  formatRupees,
  type MyDayInstallment,
  type PaymentMode,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { CustomerTier } from '../../components/CustomerTier';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { useStoreToday } from '../../components/useStoreToday';
import { SchemeLink } from '../../components/SchemeLink';
import {
  CUSTOMER_PARAM,
  usePreselectedCustomer,
  withCustomer,
} from '../../components/customerFromAddress';
import { useMayCall } from '../../lib/me';
import { PATHS } from '../../lib/paths';
import { redeemTermsQuery } from '../../lib/redeem-terms';
import { customerSchemesPath } from '../../components/schemeSummaryAddress';
import { myDayQuery } from './api';

const texts = COUNTER_TEXTS;
const c = texts.columns;
const modeLabel = (mode: string) => COLLECTION_MODE_LABELS[mode as PaymentMode] ?? mode;

// The tracks add up to the table's least width, less its 16 px gutter and border.
const columns: DataColumn<MyDayInstallment>[] = [
  { key: 'time', header: c.time, width: '64px', nowrap: true, cell: (row) => row.time },
  { key: 'receipt', header: c.receipt, width: 'minmax(150px, 1fr)', cell: (row) => row.receipt },
  {
    key: 'schemeid',
    header: c.schemeid,
    width: '80px',
    cell: (row) => <SchemeLink schemeid={row.schemeid} />,
  },
  { key: 'customer', header: c.customer, width: 'minmax(140px, 2fr)', cell: (row) => row.custname },
  { key: 'mode', header: c.mode, width: '92px', cell: (row) => modeLabel(row.mode) },
  {
    key: 'amount',
    header: c.amount,
    width: '110px',
    align: 'right',
    nowrap: true,
    cell: (row) => formatRupees(row.amount),
  },
];

/**
 * Where the work is done; with a customer chosen, each opens with that customer. Taking an
 * installment starts from every scheme of the customer (Scheme Summary, whenever they
 * started), else from a scheme ID.
 */
function QuickActions({ customer }: { customer: CustomerOption | null }) {
  const mayRedeem = useMayCall('redeemPoints');
  const today = useStoreToday();
  const actions = [
    { key: 'credit', to: withCustomer(PATHS.loyaltyPoints, customer), label: texts.creditPoints },
    {
      key: 'installment',
      to: customer ? customerSchemesPath(customer, today) : PATHS.schemeStatement,
      label: texts.takeInstallment,
    },
    { key: 'start', to: withCustomer(PATHS.schemeGeneration, customer), label: texts.startScheme },
    ...(mayRedeem
      ? [
          {
            key: 'redeem',
            to: withCustomer(PATHS.redeemPoints, customer),
            label: texts.redeemPoints,
          },
        ]
      : []),
  ];
  return (
    <Box
      component="nav"
      aria-label={texts.actions}
      sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}
    >
      {actions.map((action) => (
        <Button key={action.key} component={RouterLink} to={action.to} variant="outlined">
          {action.label}
        </Button>
      ))}
    </Box>
  );
}

/**
 * The counter home: a cashier's day starts with a customer. The search has the focus; the
 * quick actions open the screens where the work is done; below, what they took today.
 */
export function CounterHomePage() {
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  // The customer chosen stays in the address too: back from a quick action, they are still here.
  const [, setParams] = useSearchParams();
  usePreselectedCustomer(customer, setCustomer);
  const choose = (next: CustomerOption | null) => {
    setCustomer(next);
    setParams(next ? { [CUSTOMER_PARAM]: next.MOBILENO } : {}, { replace: true });
  };
  const day = useQuery(myDayQuery);
  // Where the chosen customer stands (their tier), when tiers are set.
  const terms = useQuery(redeemTermsQuery(customer?.MOBILENO ?? ''));
  return (
    <>
      <PageHeader title={PAGE_TITLES.counter} />
      <Box sx={{ display: 'grid', gap: 2, maxWidth: 900 }}>
        <CustomerSearch value={customer} onSelect={choose} label={texts.search} autoFocus />
        {customer && <Typography>{texts.chosen(customer.CUSTNAME, customer.MOBILENO)}</Typography>}
        {customer && <CustomerTier standing={terms.data} />}
        <QuickActions customer={customer} />
        <Typography component="h2" variant="h6">
          {texts.today}
        </Typography>
        <DataTable
          label={texts.today}
          columns={columns}
          rows={day.data?.installments ?? []}
          rowKey={(row) => row.receipt}
          bodyHeight={320}
          minWidth={652}
          emptyText={day.isError ? '' : texts.none}
          loading={day.isFetching}
          loadError={day.isError && texts.failed}
        />
        {day.data && day.data.installments.length > 0 && (
          <Typography>
            {texts.totals(day.data.totals.installments, formatRupees(day.data.totals.amount))}
          </Typography>
        )}
      </Box>
    </>
  );
}
