import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/EditOutlined';
import { BRANCH_TEXTS, PAGE_TITLES, type Branch } from '@kanak/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { useBranches } from './api';
import { BranchForm } from './BranchForm';

const texts = BRANCH_TEXTS;

/** Branches (/home/branches, owner): the shop's showrooms, added and edited by code. */
export function BranchesPage() {
  const branches = useBranches();
  // null: closed; 'new': adding; a branch: editing it.
  const [editing, setEditing] = useState<Branch | 'new' | null>(null);

  const columns: DataColumn<Branch>[] = [
    { key: 'code', header: texts.code, width: '90px', nowrap: true, cell: (b) => b.code },
    { key: 'name', header: texts.name, width: 'minmax(0, 1.2fr)', cell: (b) => b.name },
    { key: 'address', header: texts.address, width: 'minmax(0, 2fr)', cell: (b) => b.address },
    { key: 'phone', header: texts.phone, width: 'minmax(0, 1fr)', cell: (b) => b.phone },
    {
      key: 'actions',
      header: texts.actions,
      width: '80px',
      align: 'center',
      cell: (b) => (
        <Tooltip title={texts.edit(b.code)}>
          <IconButton aria-label={texts.edit(b.code)} onClick={() => setEditing(b)}>
            <EditIcon />
          </IconButton>
        </Tooltip>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={PAGE_TITLES.branches}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
          {texts.add}
        </Button>
      </PageHeader>
      <DataTable
        loadError={branches.isError && texts.loadFailed}
        label={texts.table}
        columns={columns}
        rows={branches.data ?? []}
        rowKey={(b) => b.code}
        bodyHeight={420}
        minWidth={720}
        emptyText={texts.empty}
        loading={branches.isFetching}
        loadingLabel={texts.loading}
      />
      {editing !== null && (
        <BranchForm branch={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
