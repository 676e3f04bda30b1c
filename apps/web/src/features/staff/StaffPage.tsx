import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/PersonAddOutlined';
import BlockIcon from '@mui/icons-material/BlockOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import {
  PAGE_TITLES,
  ROLE_LABELS,
  ROLES,
  STAFF_TEXTS,
  type Role,
  type StaffAccount,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { showAlert } from '../../lib/app-state';
import { useBranchList } from '../../lib/branches';
import { useMe } from '../../lib/me';
import { useDisableStaff, useEnableStaff, useResetStaffPassword, useStaff } from './api';
import { StaffForm } from './StaffForm';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';

const texts = STAFF_TEXTS;

type Confirming = { kind: 'disable' | 'enable' | 'reset'; account: StaffAccount };

/**
 * Staff (/home/staff, owner and manager): every account the signed-in staff member manages
 * (a manager: their branch's cashiers) with name, username, role, branch and status; add one
 * (its temporary password shown once), edit role, branch and name, disable or enable, reset
 * the password (a new temporary one, shown once).
 */
export function StaffPage() {
  const { data: me } = useMe();
  const isOwner = me?.role === 'owner';
  const staff = useStaff();
  const branches = useBranchList(isOwner);
  const disable = useDisableStaff();
  const enable = useEnableStaff();
  const reset = useResetStaffPassword();
  const [form, setForm] = useState<StaffAccount | 'new' | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [shown, setShown] = useState<{ username: string; password: string } | null>(null);

  // What the signed-in staff member may give: an owner every role and branch, a manager
  // cashiers of their own branch.
  const roles: readonly Role[] = isOwner ? ROLES : ['cashier'];
  const branchChoices = isOwner ? (branches.data ?? []) : me?.branch ? [me.branch] : [];
  const mayManage = (account: StaffAccount) =>
    isOwner || (account.role === 'cashier' && account.branch === me?.branch?.code);

  const change = { disable, enable, reset };
  const confirm = () => {
    if (!confirming) return;
    const { kind, account } = confirming;
    const done = (message?: string) => {
      if (message) showAlert('success', message);
      setConfirming(null);
    };
    const body = { username: account.username };
    if (kind === 'reset') {
      reset.submit(body, {
        onSuccess: (answer) => {
          done(answer.message);
          setShown({ username: answer.data.username, password: answer.data.temporaryPassword });
        },
      });
    } else {
      change[kind].submit(body, { onSuccess: (answer) => done(answer.message) });
    }
  };

  const action = (label: string, icon: React.ReactNode, onClick: () => void) => (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={onClick} size="small">
        {icon}
      </IconButton>
    </Tooltip>
  );

  const columns: DataColumn<StaffAccount>[] = [
    { key: 'name', header: texts.name, width: 'minmax(0, 1.3fr)', cell: (a) => a.name || '—' },
    { key: 'username', header: texts.username, width: 'minmax(0, 1fr)', cell: (a) => a.username },
    { key: 'role', header: texts.role, width: '100px', cell: (a) => ROLE_LABELS[a.role] },
    { key: 'branch', header: texts.branch, width: '90px', cell: (a) => a.branch },
    {
      key: 'status',
      header: texts.status,
      width: 'minmax(0, 1.2fr)',
      cell: (a) => (
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
          <Chip
            size="small"
            label={a.disabled ? texts.disabled : texts.active}
            color={a.disabled ? 'default' : 'success'}
            variant="outlined"
          />
          {a.mustChangePassword && (
            <Chip size="small" label={texts.mustChange} variant="outlined" />
          )}
        </Box>
      ),
    },
    {
      key: 'actions',
      header: texts.actions,
      width: '140px',
      align: 'center',
      cell: (a) =>
        mayManage(a) ? (
          <Box sx={{ display: 'flex' }}>
            {action(texts.edit(a.username), <EditIcon />, () => setForm(a))}
            {a.disabled
              ? action(texts.enable(a.username), <CheckCircleIcon />, () =>
                  setConfirming({ kind: 'enable', account: a }),
                )
              : action(texts.disable(a.username), <BlockIcon />, () =>
                  setConfirming({ kind: 'disable', account: a }),
                )}
            {action(texts.resetPassword(a.username), <KeyIcon />, () =>
              setConfirming({ kind: 'reset', account: a }),
            )}
          </Box>
        ) : null,
    },
  ];

  const confirmTexts =
    confirming &&
    {
      disable: { title: texts.confirmDisableTitle, body: texts.confirmDisable, danger: true },
      enable: { title: texts.confirmEnableTitle, body: texts.confirmEnable, danger: false },
      reset: { title: texts.confirmResetTitle, body: texts.confirmReset, danger: true },
    }[confirming.kind];

  return (
    <>
      <PageHeader title={PAGE_TITLES.staff}>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setForm('new')}
          disabled={!me || branchChoices.length === 0}
        >
          {texts.add}
        </Button>
      </PageHeader>
      <DataTable
        loadError={staff.isError && texts.loadFailed}
        label={texts.table}
        columns={columns}
        rows={staff.data ?? []}
        rowKey={(a) => a.username}
        bodyHeight={480}
        minWidth={760}
        emptyText={texts.empty}
        loading={staff.isFetching}
        loadingLabel={texts.loading}
      />
      {form !== null && (
        <StaffForm
          account={form === 'new' ? null : form}
          roles={roles}
          branches={branchChoices}
          onAdded={(username, password) => {
            setForm(null);
            setShown({ username, password });
          }}
          onClose={() => setForm(null)}
        />
      )}
      {confirming && confirmTexts && (
        <ConfirmDialog
          title={confirmTexts.title(confirming.account.username)}
          cancelLabel={texts.cancel}
          confirmLabel={texts.confirm}
          pendingLabel={texts.confirming}
          change={change[confirming.kind]}
          danger={confirmTexts.danger}
          onConfirm={confirm}
          onCancel={() => {
            change[confirming.kind].reset();
            setConfirming(null);
          }}
        >
          <Typography>{confirmTexts.body}</Typography>
        </ConfirmDialog>
      )}
      {shown && (
        <ShownOnceDialog
          title={texts.temporaryTitle(shown.username)}
          intro={<Typography>{texts.temporaryIntro}</Typography>}
          secret={shown.password}
          texts={texts}
          size="xs"
          onClose={() => setShown(null)}
        />
      )}
    </>
  );
}
