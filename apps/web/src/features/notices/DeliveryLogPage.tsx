import { useState } from 'react';
import TextField from '@mui/material/TextField';
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
  noticesQuery as noticesQuerySchema,
  type NoticeEntry,
} from '@kanak/contract';
import { DateRangeFields } from '../../components/FilterPanel';
import { ListPage } from '../../components/ListPage';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { textFields } from '../../components/useAddressFilter';
import { useListQuery, type FilterProblems } from '../../components/useListQuery';
import { showAlert } from '../../lib/app-state';
import { useBranding } from '../../lib/branding';
import { reportFailure } from '../../lib/failure';
import { NO_FILTERS, noticeParams, noticesQuery, useResendNotice, type NoticeFilters } from './api';
import { deliveryColumns } from './deliveryColumns';

const texts = DELIVERY_LOG_TEXTS;

const anyOption = { value: '', label: texts.any };
const statusOptions = [
  anyOption,
  ...NOTICE_STATUSES.map((status) => ({ value: status, label: NOTICE_STATUS_LABELS[status] })),
];
const eventOptions = [
  anyOption,
  ...NOTICE_EVENTS.map((event) => ({ value: event, label: NOTICE_EVENT_LABELS[event] })),
];

/** The filters in the address (`?status=failed&from=…`): a bookmark, Back and Forward. */
const noticesAddress = textFields(NO_FILTERS);

const isFilter = (field: unknown): field is keyof NoticeFilters =>
  typeof field === 'string' && field in NO_FILTERS;

/** The filters' problems, field by field, in the contract's words (none when they may go). */
function problemsOf(filters: NoticeFilters): FilterProblems<NoticeFilters> {
  const checked = noticesQuerySchema.safeParse(noticeParams(filters, 1));
  const problems: FilterProblems<NoticeFilters> = {};
  for (const issue of checked.error?.issues ?? []) {
    const field = issue.path[0];
    if (isFilter(field) && !problems[field]) problems[field] = issue.message;
  }
  return problems;
}

/** Sending failed notices again, one at a time: the notice on its way shows its spinner. */
function useSendAgain() {
  const resend = useResendNotice();
  const [resending, setResending] = useState<number | null>(null);
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
  return (notice: NoticeEntry) =>
    notice.status === 'failed' ? (
      <SubmitButton
        type="button"
        variant="outlined"
        size="small"
        className="no-print"
        aria-label={texts.resend(notice.id)}
        pending={resending === notice.id}
        pendingLabel={texts.resending}
        disabled={resend.isPending}
        onClick={() => sendAgain(notice)}
        sx={{ whiteSpace: 'nowrap' }}
      >
        {texts.resendLabel}
      </SubmitButton>
    ) : (
      ''
    );
}

/**
 * Delivery Log (/home/delivery-log, owners and managers): every notice to customers, newest
 * first, with how it went; a failed one may be sent again. Managers use it to answer a
 * customer who says nothing came.
 */
export function DeliveryLogPage() {
  const timeZone = useBranding().branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
  const resendButton = useSendAgain();
  const list = useListQuery({
    address: noticesAddress,
    query: noticesQuery,
    pageSize: LIMITS.noticesPageSize,
    maxPages: LIMITS.noticesMaxPages,
    tidy: (form) => ({ ...form, mobile: form.mobile.trim() }),
    check: problemsOf,
    cleared: NO_FILTERS,
    failed: (error) => reportFailure(error, texts.loadFailed, 'warn'),
  });
  const { form, edit, problems } = list;

  return (
    <ListPage
      title={PAGE_TITLES.deliveryLog}
      list={list}
      filters={{
        title: texts.filters,
        columns: { sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
        search: texts.search,
        pendingLabel: texts.loading,
        clear: texts.clear,
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
            <DateRangeFields labels={texts} value={form} onChange={edit} problems={problems} />
          </>
        ),
      }}
      table={{
        label: texts.table,
        columns: deliveryColumns(timeZone, resendButton),
        rowKey: (n) => n.id,
        bodyHeight: 480,
        minWidth: 950,
        emptyText: texts.empty,
        loadingLabel: texts.loading,
      }}
      pageOf={(page, pages, total) => texts.pageOf(page, pages, total)}
    />
  );
}
