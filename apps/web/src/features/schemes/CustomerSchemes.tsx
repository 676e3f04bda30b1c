import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import {
  MESSAGES,
  SCHEME_TEXTS,
  formatRupees,
  formatSchemeDate,
  isInactive,
  maturityOf,
  type SchemeRecord,
} from '@kanak/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { SchemeLink } from '../../components/SchemeLink';
import { useMayCall } from '../../lib/me';
import { ActivateButton, ActivateSchemeDialog } from './ActivateScheme';
import { useDeleteScheme } from './api';
import { DeleteSchemeDialog } from './DeleteSchemeDialog';
import { StatusChip } from './StatusChip';

const texts = SCHEME_TEXTS.generation;
const c = texts.columns;

/**
 * The chosen customer's schemes on Scheme Initiation, newest first: an Inactive one is
 * activated, or (by a manager or the owner) cancelled, on its row.
 */
export function CustomerSchemes({
  rows,
  loading,
}: {
  rows: readonly SchemeRecord[];
  loading: boolean;
}) {
  const [deleting, setDeleting] = useState<SchemeRecord | null>(null);
  const [activating, setActivating] = useState<SchemeRecord | null>(null);
  // Cancelling a scheme is a manager's; a cashier is not offered it.
  const mayDelete = useMayCall('deleteScheme');
  const mayActivate = useMayCall('activateScheme');
  const remove = useDeleteScheme();

  const columns: DataColumn<SchemeRecord>[] = [
    {
      key: 'id',
      header: c.schemeId,
      width: 'minmax(90px, 1fr)',
      cell: (row) => <SchemeLink schemeid={row.schemeid} />,
    },
    {
      key: 'start',
      header: c.startDate,
      width: 'minmax(110px, 1fr)',
      cell: (row) => formatSchemeDate(row.startdt),
    },
    {
      key: 'maturity',
      header: c.maturityDate,
      width: 'minmax(120px, 1fr)',
      cell: (row) => formatSchemeDate(maturityOf(row)),
    },
    {
      key: 'amount',
      header: c.amount,
      width: 'minmax(110px, 1fr)',
      align: 'right',
      cell: (row) => formatRupees(row.amount),
    },
    {
      key: 'status',
      header: c.status,
      width: 'minmax(240px, 1.5fr)',
      cell: (row) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <StatusChip status={row.matyn} />
          {isInactive(row.matyn) && mayActivate && (
            <ActivateButton schemeid={row.schemeid} onClick={() => setActivating(row)} />
          )}
          {isInactive(row.matyn) && mayDelete && (
            <Tooltip title={texts.deleteAction(row.schemeid)}>
              <IconButton
                size="small"
                color="error"
                aria-label={texts.deleteAction(row.schemeid)}
                onClick={() => {
                  remove.reset();
                  setDeleting(row);
                }}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      ),
    },
  ];

  return (
    <Box component="section" aria-labelledby="scheme-list-title">
      <Typography id="scheme-list-title" component="h2" variant="h5" sx={{ mb: 1.5 }}>
        {texts.tableTitle}
      </Typography>
      <DataTable
        label={texts.table}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.schemeid}
        bodyHeight={280}
        minWidth={720}
        emptyText={MESSAGES.noActiveSchemes}
        loading={loading}
        loadingLabel={texts.loadingSchemes}
      />
      {activating && (
        <ActivateSchemeDialog scheme={activating} onClose={() => setActivating(null)} />
      )}
      {deleting && (
        <DeleteSchemeDialog
          schemeid={deleting.schemeid}
          remove={remove}
          onClose={() => setDeleting(null)}
        />
      )}
    </Box>
  );
}
