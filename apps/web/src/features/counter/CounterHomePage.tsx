import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import PersonAddIcon from '@mui/icons-material/PersonAddOutlined';
import { useQuery } from '@tanstack/react-query';
import {
  COLLECTION_MODE_LABELS,
  COUNTER_HUB_TEXTS,
  COUNTER_TEXTS,
  PAGE_TITLES,
  formatRupees,
  type MyDayInstallment,
  type PaymentMode,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
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
import { customerSchemesPath } from '../../components/schemeSummaryAddress';
import { myDayQuery } from './api';
import { CustomerAtCounter } from './CustomerAtCounter';

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

/** A whole mobile number nobody has: Customer Profile opens with it typed in. */
function AddCustomer({ mobile }: { mobile: string }) {
  const mayAdd = useMayCall('saveCustomer');
  if (!mayAdd) return null;
  return (
    <Box>
      <Button
        component={RouterLink}
        to={`${PATHS.customerProfile}?${new URLSearchParams({ [CUSTOMER_PARAM]: mobile })}`}
        variant="contained"
        startIcon={<PersonAddIcon />}
      >
        {COUNTER_HUB_TEXTS.addCustomer}
      </Button>
    </Box>
  );
}

/**
 * The counter home: a cashier's day starts with a customer. The search has the focus; once a
 * customer is chosen, where their points stand and their running schemes, each due
 * installment one press away (the first stop of Tab after the search); the quick actions open
 * the screens where the rest is done; below, what they took today. A whole number nobody has
 * offers to add the customer.
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
  const [unknownMobile, setUnknownMobile] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={PAGE_TITLES.counter} />
      <Box sx={{ display: 'grid', gap: 2, maxWidth: 900, minWidth: 0 }}>
        <CustomerSearch
          value={customer}
          onSelect={choose}
          label={texts.search}
          autoFocus
          onUnknownMobile={setUnknownMobile}
        />
        {unknownMobile && <AddCustomer mobile={unknownMobile} />}
        {customer && <CustomerAtCounter key={customer.MOBILENO} customer={customer} />}
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
