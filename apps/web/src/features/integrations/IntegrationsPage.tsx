import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import BlockIcon from '@mui/icons-material/Block';
import { INTEGRATION_TEXTS, PAGE_TITLES } from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { showAlert } from '../../lib/app-state';
import { useApiKeys, useRevokeApiKey, type ApiKey } from './api';
import { ApiKeyForm } from './ApiKeyForm';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';

const texts = INTEGRATION_TEXTS;

/** A moment as the shop's calendar shows it: DD/MM/YYYY in India. */
const shopDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { timeZone: 'Asia/Kolkata' });

/**
 * Integrations (/home/integrations, owner): the API keys the billing counters post sales,
 * returns and redemptions with; make one for a branch (shown once), revoke one.
 */
export function IntegrationsPage() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<{ label: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.submit(revoking.id, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
        setRevoking(null);
      },
    });
  };

  const columns: DataColumn<ApiKey>[] = [
    { key: 'label', header: texts.label, width: 'minmax(0, 1.5fr)', cell: (k) => k.label },
    { key: 'branch', header: texts.branch, width: '90px', nowrap: true, cell: (k) => k.branch },
    {
      key: 'prefix',
      header: texts.prefix,
      width: 'minmax(0, 1fr)',
      cell: (k) => <code>{k.prefix}…</code>,
    },
    {
      key: 'created',
      header: texts.created,
      width: '110px',
      nowrap: true,
      cell: (k) => shopDate(k.createdAt),
    },
    {
      key: 'lastUsed',
      header: texts.lastUsed,
      width: '110px',
      nowrap: true,
      cell: (k) => (k.lastUsedAt ? shopDate(k.lastUsedAt) : texts.neverUsed),
    },
    {
      key: 'status',
      header: texts.status,
      width: '100px',
      cell: (k) =>
        k.revokedAt ? (
          <Chip size="small" label={texts.revoked} />
        ) : (
          <Chip size="small" color="success" label={texts.active} />
        ),
    },
    {
      key: 'actions',
      header: texts.actions,
      width: '80px',
      align: 'center',
      cell: (k) =>
        k.revokedAt ? null : (
          <Tooltip title={texts.revoke(k.label)}>
            <IconButton aria-label={texts.revoke(k.label)} onClick={() => setRevoking(k)}>
              <BlockIcon />
            </IconButton>
          </Tooltip>
        ),
    },
  ];

  return (
    <>
      <PageHeader title={PAGE_TITLES.integrations}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          {texts.add}
        </Button>
      </PageHeader>
      <Typography sx={{ mb: 2 }}>{texts.intro}</Typography>
      <DataTable
        loadError={keys.isError && texts.loadFailed}
        label={texts.table}
        columns={columns}
        rows={keys.data ?? []}
        rowKey={(k) => String(k.id)}
        bodyHeight={420}
        minWidth={760}
        emptyText={texts.empty}
        loading={keys.isFetching}
        loadingLabel={texts.loading}
      />
      {adding && (
        <ApiKeyForm
          onClose={() => setAdding(false)}
          onMade={(label, key) => {
            setAdding(false);
            setShown({ label, key });
          }}
        />
      )}
      {shown && (
        <ShownOnceDialog
          title={texts.shownTitle(shown.label)}
          intro={<Alert severity="warning">{texts.shownIntro}</Alert>}
          secret={shown.key}
          texts={texts}
          onClose={() => setShown(null)}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={texts.revokeTitle(revoking.label)}
          cancelLabel={texts.cancel}
          confirmLabel={texts.confirmRevoke}
          pendingLabel={texts.revoking}
          change={revoke}
          danger
          onConfirm={confirmRevoke}
          onCancel={() => {
            revoke.reset();
            setRevoking(null);
          }}
        >
          <Typography>{texts.revokeBody}</Typography>
        </ConfirmDialog>
      )}
    </>
  );
}
