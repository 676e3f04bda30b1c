import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  GOLD_RATE_TEXTS,
  addDays,
  formatRupees,
  formatSlashDate,
  type GoldRate,
} from '@kanak/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { useStoreTimeZone, useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { goldRatesQuery } from './api';

const texts = GOLD_RATE_TEXTS;

/** The history's first range: the last 31 days, today included. */
const HISTORY_DAYS = 31;

/** The history's columns; a rate's time of entry in the store's time zone. */
const columnsIn = (timeZone: string): DataColumn<GoldRate>[] => [
  {
    key: 'date',
    header: texts.colDate,
    width: '110px',
    nowrap: true,
    cell: (rate) => formatSlashDate(rate.date),
  },
  {
    key: 'rate22k',
    header: texts.col22k,
    width: 'minmax(100px, 1fr)',
    align: 'right',
    nowrap: true,
    cell: (rate) => formatRupees(rate.rate22k),
  },
  {
    key: 'rate24k',
    header: texts.col24k,
    width: 'minmax(100px, 1fr)',
    align: 'right',
    nowrap: true,
    cell: (rate) => formatRupees(rate.rate24k),
  },
  {
    key: 'enteredBy',
    header: texts.colEnteredBy,
    width: 'minmax(0, 1.2fr)',
    cell: (rate) => rate.enteredBy ?? '',
  },
  {
    key: 'updatedAt',
    header: texts.colUpdatedAt,
    width: '170px',
    nowrap: true,
    cell: (rate) =>
      new Date(rate.updatedAt).toLocaleString('en-IN', {
        dateStyle: 'short',
        timeStyle: 'short',
        timeZone,
      }),
  },
];

/** The rates by date, the last month first; any range of dates on request. */
export function RateHistory() {
  const today = useStoreToday();
  const timeZone = useStoreTimeZone();
  const [from, setFrom] = useState(() => addDays(today, -(HISTORY_DAYS - 1)));
  const [to, setTo] = useState(today);
  const [shown, setShown] = useState({ from, to });
  const history = useQuery(goldRatesQuery(shown.from, shown.to));
  const rangeError = history.error ? readRangeRefusal(history.error) : undefined;

  return (
    <Stack spacing={2} component="section" aria-label={texts.historyHeading}>
      <Typography variant="h6" component="h2">
        {texts.historyHeading}
      </Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'flex-start' } }}
      >
        <DateField label={texts.from} name="from" value={from} onChange={setFrom} max={today} />
        <DateField label={texts.to} name="to" value={to} onChange={setTo} max={today} />
        <Button variant="outlined" onClick={() => setShown({ from, to })} sx={{ minHeight: 56 }}>
          {texts.show}
        </Button>
      </Stack>
      <DataTable
        loadError={history.isError && (rangeError ?? texts.loadFailed)}
        label={texts.historyTable}
        columns={columnsIn(timeZone)}
        rows={history.data ?? []}
        rowKey={(rate) => rate.date}
        bodyHeight={360}
        minWidth={620}
        emptyText={texts.historyEmpty}
        loading={history.isFetching}
        loadingLabel={texts.loading}
      />
    </Stack>
  );
}

/** The server's words when it refused the range (from after to, more than a year). */
function readRangeRefusal(error: unknown): string | undefined {
  const failure = readFailure(error);
  return failure.kind === 'refused' ? (failure.message ?? undefined) : undefined;
}
