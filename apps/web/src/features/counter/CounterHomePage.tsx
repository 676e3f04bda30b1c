import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  COLLECTION_MODE_LABELS,
  COUNTER_TEXTS,
  PAGE_TITLES,
  formatRupees,
  type MyDayData,
  type PaymentMode,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { PageHeader } from '../../components/PageHeader';
import { SchemeLink } from '../../components/SchemeLink';
import { PATHS } from '../../lib/paths';
import { myDayQuery } from './api';

const texts = COUNTER_TEXTS;
const modeLabel = (mode: string) => COLLECTION_MODE_LABELS[mode as PaymentMode] ?? mode;

function QuickActions() {
  const actions = [
    { to: PATHS.loyaltyPoints, label: texts.creditPoints },
    { to: PATHS.schemeStatement, label: texts.takeInstallment },
    { to: PATHS.schemeGeneration, label: texts.startScheme },
  ];
  return (
    <Box
      component="nav"
      aria-label={texts.actions}
      sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}
    >
      {actions.map((action) => (
        <Button key={action.to} component={RouterLink} to={action.to} variant="outlined">
          {action.label}
        </Button>
      ))}
    </Box>
  );
}

function TodaysInstallments({ day }: { day: MyDayData }) {
  if (day.installments.length === 0) return <Typography>{texts.none}</Typography>;
  const columns = texts.columns;
  return (
    <>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={texts.today}>
          <TableHead>
            <TableRow>
              <TableCell>{columns.time}</TableCell>
              <TableCell>{columns.receipt}</TableCell>
              <TableCell>{columns.schemeid}</TableCell>
              <TableCell>{columns.customer}</TableCell>
              <TableCell>{columns.mode}</TableCell>
              <TableCell align="right">{columns.amount}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {day.installments.map((row) => (
              <TableRow key={row.receipt}>
                <TableCell>{row.time}</TableCell>
                <TableCell>{row.receipt}</TableCell>
                <TableCell>
                  <SchemeLink schemeid={row.schemeid} />
                </TableCell>
                <TableCell>{row.custname}</TableCell>
                <TableCell>{modeLabel(row.mode)}</TableCell>
                <TableCell align="right">{formatRupees(row.amount)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      <Typography sx={{ mt: 1 }}>
        {texts.totals(day.totals.installments, formatRupees(day.totals.amount))}
      </Typography>
    </>
  );
}

/**
 * The counter home: a cashier's day starts with a customer. The search has the focus; the
 * quick actions open the screens where the work is done; below, what they took today.
 */
export function CounterHomePage() {
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  const day = useQuery(myDayQuery);
  return (
    <>
      <PageHeader title={PAGE_TITLES.counter} />
      <Box sx={{ display: 'grid', gap: 2, maxWidth: 900 }}>
        <CustomerSearch value={customer} onSelect={setCustomer} label={texts.search} autoFocus />
        {customer && <Typography>{texts.chosen(customer.CUSTNAME, customer.MOBILENO)}</Typography>}
        <QuickActions />
        <Typography component="h2" variant="h6">
          {texts.today}
        </Typography>
        {day.isError && <Typography role="alert">{texts.failed}</Typography>}
        {day.data && <TodaysInstallments day={day.data} />}
      </Box>
    </>
  );
}
