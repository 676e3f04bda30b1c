import { useEffect, useState } from 'react';
import Chip, { type ChipProps } from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_STORE_TIMEZONE,
  DELIVERY_LOG_TEXTS,
  LIMITS,
  NOTICE_EVENTS,
  NOTICE_EVENT_LABELS,
  NOTICE_MESSAGES,
  NOTICE_STATUSES,
  NOTICE_STATUS_LABELS,
  PAGE_TITLES,
  formatAuditTime,
  noticesQuery as noticesQuerySchema,
  type NoticeEntry,
  type NoticeStatus,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { NumbersUnbroken } from '../../components/NumbersUnbroken';
import { ListPage } from '../../components/ListPage';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { textFields, useAddressFilter } from '../../components/useAddressFilter';
import { showAlert } from '../../lib/app-state';
import { useBranding } from '../../lib/branding';
import { reportFailure } from '../../lib/failure';
import { NO_FILTERS, noticeParams, noticesQuery, useResendNotice, type NoticeFilters } from './api';

const texts = DELIVERY_LOG_TEXTS;
const c = texts.columns;

const STATUS_COLOURS: Record<NoticeStatus, ChipProps['color']> = {
  queued: 'info',
  sent: 'success',
  failed: 'error',
  skipped: 'default',
};

const anyOption = { value: '', label: texts.any };
const statusOptions = [
  anyOption,
  ...NOTICE_STATUSES.map((status) => ({ value: status, label: NOTICE_STATUS_LABELS[status] })),
];
const eventOptions = [
  anyOption,
  ...NOTICE_EVENTS.map((event) => ({ value: event, label: NOTICE_EVENT_LABELS[event] })),
];

/** "24/11/2026," and "14:05" each stay whole. */
const DATE_WITH_COMMA = /(\d[\d./:-]*\d,?)/;

/** The filters in the address (`?status=failed&from=…`): a bookmark, Back and Forward. */
const noticesAddress = textFields(NO_FILTERS);

type FilterProblems = Partial<Record<keyof NoticeFilters, string>>;

const isFilter = (field: unknown): field is keyof NoticeFilters =>
  typeof field === 'string' && field in NO_FILTERS;

/** The filters' problems, field by field, in the contract's words (none when they may go). */
function problemsOf(filters: NoticeFilters): FilterProblems {
  const checked = noticesQuerySchema.safeParse(noticeParams(filters, 1));
  const problems: FilterProblems = {};
  for (const issue of checked.error?.issues ?? []) {
    const field = issue.path[0];
    if (isFilter(field) && !problems[field]) problems[field] = issue.message;
  }
  return problems;
}

/**
 * Delivery Log (/home/delivery-log, owners and managers): every notice to customers, newest
 * first, with how it went; a failed one may be sent again. Managers use it to answer a
 * customer who says nothing came.
 */
export function DeliveryLogPage() {
  const timeZone = useBranding().branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
  const { asked: filters, form, setForm, page, setPage, show } = useAddressFilter(noticesAddress);
  const [problems, setProblems] = useState<FilterProblems>({});
  const notices = useQuery(noticesQuery(filters, page));
  const resend = useResendNotice();
  const [resending, setResending] = useState<number | null>(null);

  useEffect(() => {
    if (notices.error) reportFailure(notices.error, texts.loadFailed, 'warn');
  }, [notices.error, notices.errorUpdatedAt]);

  const edit = (patch: Partial<NoticeFilters>) => {
    setForm((current) => ({ ...current, ...patch }));
    setProblems({});
  };
  const search = () => {
    const next = { ...form, mobile: form.mobile.trim() };
    const found = problemsOf(next);
    setProblems(found);
    if (Object.keys(found).length === 0) show(next, () => void notices.refetch());
  };
  const clear = () => {
    setProblems({});
    show(NO_FILTERS);
  };

  const sendAgain = (notice: NoticeEntry) => {
    setResending(notice.id);
    resend.submit(notice.id, {
      onSuccess: (answer) => {
        setResending(null);
        showAlert('success', answer.message ?? NOTICE_MESSAGES.noticeResent(notice.id));
      },
      onError: (error) => {
        setResending(null);
        reportFailure(error, texts.resendFailed);
      },
    });
  };

  const rows = notices.isError ? [] : (notices.data?.data ?? []);
  const total = notices.data?.total ?? 0;
  const pages = Math.min(
    LIMITS.noticesMaxPages,
    Math.max(1, Math.ceil(total / LIMITS.noticesPageSize)),
  );

  // A moment may wrap after its date and comma, never inside the date or the time.
  const at = (iso: string | null) =>
    iso ? <NumbersUnbroken text={formatAuditTime(iso, timeZone)} keep={DATE_WITH_COMMA} /> : '';

  const columns: DataColumn<NoticeEntry>[] = [
    { key: 'when', header: c.when, width: '96px', cell: (n) => at(n.createdAt) },
    {
      key: 'event',
      header: c.event,
      width: 'minmax(96px, 1fr)',
      cell: (n) => NOTICE_EVENT_LABELS[n.event],
    },
    { key: 'mobile', header: c.mobile, width: '104px', nowrap: true, cell: (n) => n.mobile ?? '' },
    {
      key: 'text',
      header: c.text,
      width: 'minmax(150px, 3fr)',
      cell: (n) => <NumbersUnbroken text={n.text} />,
    },
    {
      key: 'status',
      header: c.status,
      width: '96px',
      cell: (n) => (
        <Chip
          size="small"
          color={STATUS_COLOURS[n.status]}
          label={NOTICE_STATUS_LABELS[n.status]}
        />
      ),
    },
    {
      key: 'attempts',
      header: c.attempts,
      width: '88px',
      align: 'right',
      nowrap: true,
      cell: (n) => String(n.attempts),
    },
    {
      key: 'reason',
      header: c.reason,
      width: 'minmax(96px, 1.5fr)',
      cell: (n) => (n.reason ? <NumbersUnbroken text={n.reason} /> : ''),
    },
    { key: 'sentAt', header: c.sentAt, width: '96px', cell: (n) => at(n.sentAt) },
    {
      key: 'actions',
      header: c.actions,
      width: '112px',
      align: 'center',
      cell: (n) =>
        n.status === 'failed' ? (
          <SubmitButton
            type="button"
            variant="outlined"
            size="small"
            className="no-print"
            aria-label={texts.resend(n.id)}
            pending={resending === n.id}
            pendingLabel={texts.resending}
            disabled={resend.isPending}
            onClick={() => sendAgain(n)}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {texts.resendLabel}
          </SubmitButton>
        ) : (
          ''
        ),
    },
  ];

  return (
    <ListPage
      title={PAGE_TITLES.deliveryLog}
      filters={{
        title: texts.filters,
        columns: { sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
        onSubmit: search,
        search: texts.search,
        pending: notices.isFetching,
        pendingLabel: texts.loading,
        clear: { label: texts.clear, onClick: clear },
        children: (
          <>
            <SelectField
              label={texts.status}
              name="status"
              value={form.status}
              options={statusOptions}
              onChange={(status) => edit({ status })}
            />
            <SelectField
              label={texts.event}
              name="event"
              value={form.event}
              options={eventOptions}
              onChange={(event) => edit({ event })}
            />
            <TextField
              label={texts.mobile}
              name="mobile"
              value={form.mobile}
              onChange={(event) => edit({ mobile: event.target.value.replace(/\D/g, '') })}
              error={Boolean(problems.mobile)}
              helperText={problems.mobile}
              slotProps={{
                inputLabel: { shrink: true },
                htmlInput: { inputMode: 'numeric', maxLength: LIMITS.mobileLength },
              }}
            />
            <DateField
              label={texts.from}
              name="from"
              value={form.from}
              max={form.to || undefined}
              onChange={(from) => edit({ from })}
              error={Boolean(problems.from)}
              helperText={problems.from}
            />
            <DateField
              label={texts.to}
              name="to"
              value={form.to}
              min={form.from || undefined}
              onChange={(to) => edit({ to })}
              error={Boolean(problems.to)}
              helperText={problems.to}
            />
          </>
        ),
      }}
      table={{
        label: texts.table,
        columns,
        rows,
        rowKey: (n) => n.id,
        bodyHeight: 480,
        minWidth: 950,
        emptyText: texts.empty,
        loading: notices.isFetching,
        loadingLabel: texts.loading,
      }}
      pager={{ page, pages, status: texts.pageOf(page, pages, total), onPage: setPage }}
    />
  );
}
