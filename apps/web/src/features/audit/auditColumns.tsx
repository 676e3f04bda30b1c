import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  AUDIT_ENTITY_LABELS,
  AUDIT_TEXTS,
  auditActionLabel,
  auditChanges,
  formatAuditTime,
  formatSlashDate,
  type AuditChange,
  type AuditEntity,
  type AuditEntry,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { NumbersUnbroken, unbroken } from '../../components/NumbersUnbroken';

const texts = AUDIT_TEXTS;
const c = texts.columns;

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

/** A period's id (a Tally export: `2026-11-01..2026-11-29`) in the shop's dates; others as kept. */
const PERIOD_ID = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;
const shownId = (id: string) => {
  const period = PERIOD_ID.exec(id);
  return period ? `${formatSlashDate(period[1]!)} – ${formatSlashDate(period[2]!)}` : id;
};

/** The Audit Trail's columns: when, who, where, to what, and the values before and after. */
export const auditColumns = (timeZone: string): DataColumn<AuditEntry>[] => [
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
    cell: (row) => (
      <NumbersUnbroken
        text={`${entityLabel(row.entity)}${row.entityId ? ` #${shownId(row.entityId)}` : ''}`}
      />
    ),
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
