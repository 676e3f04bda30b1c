import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { useQuery } from '@tanstack/react-query';
import {
  AUDIT_ENTITIES,
  AUDIT_ENTITY_LABELS,
  AUDIT_TEXTS,
  DEFAULT_STORE_TIMEZONE,
  LIMITS,
  PAGE_TITLES,
  auditActionLabel,
  auditChanges,
  formatAuditTime,
  type AuditChange,
  type AuditEntity,
  type AuditEntry,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { ListPage } from '../../components/ListPage';
import { NumbersUnbroken, unbroken } from '../../components/NumbersUnbroken';
import { SubmitButton } from '../../components/SubmitButton';
import { textFields, useAddressFilter } from '../../components/useAddressFilter';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useBranding } from '../../lib/branding';
import { NO_FILTERS, auditQuery, downloadAuditCsv } from './api';

const texts = AUDIT_TEXTS;
const c = texts.columns;

/** The filters in the address (`?entity=scheme&from=…`): a bookmark, Back and Forward. */
const auditAddress = textFields(NO_FILTERS);

const entityLabel = (entity: string) =>
  AUDIT_ENTITY_LABELS[entity as AuditEntity] ?? entity.replaceAll('_', ' ');

/** A value: a short one (a number, a date, a mobile) stays on one line; long texts may wrap. */
function Value({ text }: { text: string }) {
  return (
    <Box component="span" sx={text.length <= 24 ? unbroken : {}}>
      {text.length <= 24 ? text : <NumbersUnbroken text={text} />}
    </Box>
  );
}

/** One changed field per line: "Status: Inactive → Active", or just its value on one side. */
function Change({ change }: { change: AuditChange }) {
  return (
    <Typography variant="body2" component="div">
      <Box component="span" sx={{ fontWeight: 600 }}>
        {change.field}:
      </Box>{' '}
      {change.before !== null && change.after !== null ? (
        <>
          <Value text={change.before} /> → <Value text={change.after} />
        </>
      ) : (
        <Value text={change.after ?? change.before ?? ''} />
      )}
    </Typography>
  );
}

/** "24/11/2026, 21:16" as the date over the time, so it never runs into the next column. */
function When({ at, timeZone }: { at: string; timeZone: string }) {
  const [date, time] = formatAuditTime(at, timeZone).split(', ');
  return (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      <div>{date}</div>
      {time && (
        <Typography variant="caption" color="text.secondary">
          {time}
        </Typography>
      )}
    </Box>
  );
}

/**
 * Audit Trail (/home/audit, owners and managers): every change, newest first, with who made
 * it, where, to what, and the values before and after. Secrets show only as "(hidden)".
 */
export function AuditPage() {
  const timeZone = useBranding().branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
  const today = useStoreToday();
  const { asked: filters, form, edit, page, setPage, show } = useAddressFilter(auditAddress);
  const [downloading, setDownloading] = useState(false);
  const changes = useQuery(auditQuery(filters, page));

  useEffect(() => {
    if (!changes.error) return;
    const failure = readFailure(changes.error);
    if (failure.kind === 'refused') showAlert('warning', failure.message ?? texts.loadFailed);
    else if (failure.kind === 'exception') showAlert('error', texts.loadFailed);
  }, [changes.error, changes.errorUpdatedAt]);

  const search = () =>
    show({ ...form, user: form.user.trim(), mobile: form.mobile.trim() }, () => {
      void changes.refetch();
    });
  const download = async () => {
    setDownloading(true);
    try {
      await downloadAuditCsv(filters, today);
    } catch (error) {
      const failure = readFailure(error);
      showAlert(
        'error',
        failure.kind === 'refused' ? (failure.message ?? texts.csvFailed) : texts.csvFailed,
      );
    } finally {
      setDownloading(false);
    }
  };

  const rows = changes.isError ? [] : (changes.data?.data ?? []);
  const total = changes.data?.total ?? 0;
  const capped = changes.data?.totalCapped ?? false;
  const pages = Math.max(1, Math.ceil(total / LIMITS.auditPageSize));

  const columns: DataColumn<AuditEntry>[] = [
    {
      key: 'when',
      header: c.when,
      width: '110px',
      cell: (row) => <When at={row.at} timeZone={timeZone} />,
    },
    {
      key: 'who',
      header: c.who,
      width: 'minmax(110px, 1fr)',
      cell: (row) => (
        <Box>
          <div>{row.name ?? '—'}</div>
          {row.username && row.username !== row.name && (
            <Typography variant="caption" color="text.secondary">
              {row.username}
            </Typography>
          )}
        </Box>
      ),
    },
    { key: 'branch', header: c.branch, width: '80px', cell: (row) => row.branch ?? texts.noBranch },
    {
      key: 'what',
      header: c.what,
      width: 'minmax(110px, 1fr)',
      cell: (row) => `${entityLabel(row.entity)}${row.entityId ? ` #${row.entityId}` : ''}`,
    },
    {
      key: 'action',
      header: c.action,
      width: '150px',
      cell: (row) => auditActionLabel(row.action),
    },
    {
      key: 'mobile',
      header: c.mobile,
      width: '115px',
      nowrap: true,
      cell: (row) => row.mobile ?? '',
    },
    {
      key: 'change',
      header: c.change,
      width: 'minmax(220px, 3fr)',
      cell: (row) => (
        <Stack spacing={0.5}>
          {auditChanges(row.before, row.after).map((change) => (
            <Change key={change.field} change={change} />
          ))}
        </Stack>
      ),
    },
  ];

  return (
    <ListPage
      title={PAGE_TITLES.audit}
      actions={
        <SubmitButton
          type="button"
          variant="outlined"
          pending={downloading}
          pendingLabel={texts.csvPending}
          startIcon={<DownloadIcon />}
          onClick={() => void download()}
        >
          {texts.csv}
        </SubmitButton>
      }
      filters={{
        title: texts.filters,
        columns: { sm: '1fr 1fr', lg: 'repeat(5, 1fr) auto' },
        onSubmit: search,
        search: texts.search,
        pending: changes.isFetching,
        pendingLabel: texts.loading,
        clear: { label: texts.clear, onClick: () => show(NO_FILTERS) },
        children: (
          <>
            <TextField
              label={texts.user}
              name="user"
              value={form.user}
              onChange={(event) => edit({ user: event.target.value })}
              slotProps={{ htmlInput: { maxLength: LIMITS.usernameMaxLength } }}
            />
            <TextField
              select
              label={texts.entity}
              name="entity"
              value={form.entity}
              onChange={(event) => edit({ entity: event.target.value })}
            >
              <MenuItem value="">{texts.anyEntity}</MenuItem>
              {AUDIT_ENTITIES.map((entity) => (
                <MenuItem key={entity} value={entity}>
                  {AUDIT_ENTITY_LABELS[entity]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={texts.mobile}
              name="mobile"
              value={form.mobile}
              onChange={(event) => edit({ mobile: event.target.value.replace(/\D/g, '') })}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: LIMITS.mobileLength } }}
            />
            <DateField
              label={texts.from}
              name="from"
              value={form.from}
              max={form.to || undefined}
              onChange={(from) => edit({ from })}
            />
            <DateField
              label={texts.to}
              name="to"
              value={form.to}
              min={form.from || undefined}
              onChange={(to) => edit({ to })}
            />
          </>
        ),
      }}
      table={{
        label: texts.table,
        columns,
        rows,
        rowKey: (row) => row.id,
        bodyHeight: 480,
        minWidth: 900,
        emptyText: texts.empty,
        loading: changes.isFetching,
        loadingLabel: texts.loading,
      }}
      pager={{ page, pages, status: texts.pageOf(page, pages, total, capped), onPage: setPage }}
    />
  );
}
