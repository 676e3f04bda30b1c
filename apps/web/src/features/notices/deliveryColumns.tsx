import type { ReactNode } from 'react';
import Chip, { type ChipProps } from '@mui/material/Chip';
import {
  DELIVERY_LOG_TEXTS,
  NOTICE_EVENT_LABELS,
  NOTICE_STATUS_LABELS,
  formatAuditTime,
  type NoticeEntry,
  type NoticeStatus,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { NumbersUnbroken } from '../../components/NumbersUnbroken';

const c = DELIVERY_LOG_TEXTS.columns;

const STATUS_COLOURS: Record<NoticeStatus, ChipProps['color']> = {
  queued: 'info',
  sent: 'success',
  failed: 'error',
  skipped: 'default',
};

/** "24/11/2026," and "14:05" each stay whole. */
const DATE_WITH_COMMA = /(\d[\d./:-]*\d,?)/;

/**
 * The Delivery Log's columns: when, what for, to whom, the text, how it went, and `actions`
 * (what may be done with a notice, e.g. sending a failed one again).
 */
export function deliveryColumns(
  timeZone: string,
  actions: (notice: NoticeEntry) => ReactNode,
): DataColumn<NoticeEntry>[] {
  // A moment may wrap after its date and comma, never inside the date or the time.
  const at = (iso: string | null) =>
    iso ? <NumbersUnbroken text={formatAuditTime(iso, timeZone)} keep={DATE_WITH_COMMA} /> : '';
  return [
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
    { key: 'actions', header: c.actions, width: '112px', align: 'center', cell: actions },
  ];
}
