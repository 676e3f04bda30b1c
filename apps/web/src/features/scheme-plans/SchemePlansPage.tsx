import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/EditOutlined';
import {
  PAGE_TITLES,
  SCHEME_PLAN_TEXTS,
  STD_PLAN_CODE,
  formatRupees,
  type SchemePlan,
} from '@kanak/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { useSchemePlans } from './api';
import { PlanForm } from './PlanForm';

const texts = SCHEME_PLAN_TEXTS;

/**
 * Scheme plans (/home/scheme-plans, owner): the plans a scheme may be started on, value or
 * weight, each with its installments, minimum installment, bonus, grace days and days to
 * redeem; added here, and edited while no scheme uses their terms.
 */
export function SchemePlansPage() {
  const plans = useSchemePlans();
  // null: closed; 'new': adding; a plan: editing it.
  const [editing, setEditing] = useState<SchemePlan | 'new' | null>(null);

  // The tracks add up to the table's least width, less its 16 px gutter and border: 952 px
  // fits the 1280 px screen beside the sidebar, with the page's scrollbar.
  const columns: DataColumn<SchemePlan>[] = [
    { key: 'code', header: texts.code, width: '76px', nowrap: true, cell: (p) => p.code },
    { key: 'name', header: texts.name, width: 'minmax(100px, 1.4fr)', cell: (p) => p.name },
    {
      key: 'kind',
      header: texts.kind,
      width: 'minmax(84px, 1fr)',
      cell: (p) => texts.kinds[p.kind],
    },
    {
      key: 'installments',
      header: texts.installments,
      width: '112px',
      align: 'right',
      cell: (p) => p.installments,
    },
    {
      key: 'minAmount',
      header: texts.colMinAmount,
      width: '112px',
      align: 'right',
      nowrap: true,
      cell: (p) => formatRupees(p.minAmount),
    },
    {
      key: 'bonus',
      header: texts.colBonus,
      width: '72px',
      align: 'right',
      cell: (p) => texts.percent(p.bonusPercent),
    },
    {
      key: 'grace',
      header: texts.graceDays,
      width: '76px',
      align: 'right',
      cell: (p) => texts.days(p.graceDays),
    },
    {
      key: 'redeem',
      header: texts.colRedeem,
      width: '88px',
      align: 'right',
      cell: (p) => texts.days(p.redeemWithinDays),
    },
    {
      key: 'active',
      header: texts.colActive,
      width: '64px',
      cell: (p) => (p.active ? texts.yes : texts.no),
    },
    {
      key: 'schemes',
      header: texts.colSchemes,
      width: '80px',
      align: 'right',
      cell: (p) => p.schemes.toLocaleString('en-IN'),
    },
    {
      key: 'actions',
      header: texts.actions,
      width: '72px',
      align: 'center',
      // The standard plan's terms are the server's settings: nothing to edit here.
      cell: (p) =>
        p.code === STD_PLAN_CODE ? null : (
          <Tooltip title={texts.edit(p.code)}>
            <IconButton aria-label={texts.edit(p.code)} onClick={() => setEditing(p)}>
              <EditIcon />
            </IconButton>
          </Tooltip>
        ),
    },
  ];

  return (
    <>
      <PageHeader title={PAGE_TITLES.schemePlans}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
          {texts.add}
        </Button>
      </PageHeader>
      <Stack spacing={2}>
        <Typography color="text.secondary">{texts.intro}</Typography>
        <DataTable
          loadError={plans.isError && texts.loadFailed}
          label={texts.table}
          columns={columns}
          rows={plans.data ?? []}
          rowKey={(p) => p.code}
          bodyHeight={420}
          minWidth={952}
          emptyText={texts.empty}
          loading={plans.isFetching}
          loadingLabel={texts.loading}
        />
        <Typography variant="body2" color="text.secondary">
          {texts.standard}
        </Typography>
      </Stack>
      {editing !== null && (
        <PlanForm
          plan={editing === 'new' ? null : editing}
          codesInUse={(plans.data ?? []).map((p) => p.code)}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
