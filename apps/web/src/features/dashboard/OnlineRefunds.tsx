import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_STORE_TIMEZONE,
  ONLINE_REFUND_TEXTS,
  formatMonth,
  formatRupees,
  formatRupeesAndPaise,
  markOnlineRefundRequest,
  type OnlineRefund,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { SchemeLink } from '../../components/SchemeLink';
import { showAlert } from '../../lib/app-state';
import { useBranding } from '../../lib/branding';
import { reportFailure } from '../../lib/failure';
import { onlineRefundsQuery, useMarkRefunded } from './api';

const texts = ONLINE_REFUND_TEXTS;

/**
 * The online payments that bought no installment (a month meanwhile paid at the counter, an
 * order paid twice, a payment of another amount than its installment), for the owner and
 * managers to refund: shown only while there are any.
 * Noting one refunded asks for the gateway's refund id first.
 */
export function OnlineRefunds() {
  const refunds = useQuery(onlineRefundsQuery);
  const timeZone = useBranding().branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
  const [marking, setMarking] = useState<OnlineRefund | null>(null);
  if (!refunds.isError && !refunds.data?.length) return null;

  const columns: DataColumn<OnlineRefund>[] = [
    {
      key: 'customer',
      header: texts.customer,
      width: 'minmax(0, 1.4fr)',
      cell: (row) => `${row.custname} · ${row.mobileno}`,
    },
    {
      key: 'scheme',
      header: texts.scheme,
      width: '90px',
      cell: (row) => <SchemeLink schemeid={row.schemeid} />,
    },
    {
      key: 'forMonth',
      header: texts.forMonth,
      width: '90px',
      nowrap: true,
      cell: (row) => formatMonth(row.forMonth),
    },
    {
      key: 'amount',
      header: texts.amount,
      width: '100px',
      align: 'right',
      nowrap: true,
      // A payment of another amount than the installment is refunded to the paisa.
      cell: (row) =>
        row.reason === 'amountMismatch'
          ? formatRupeesAndPaise(row.amount)
          : formatRupees(row.amount),
    },
    {
      key: 'paidOn',
      header: texts.paidOn,
      width: '150px',
      nowrap: true,
      cell: (row) =>
        new Date(row.paidAt).toLocaleString('en-IN', {
          dateStyle: 'short',
          timeStyle: 'short',
          timeZone,
        }),
    },
    {
      key: 'reason',
      header: texts.reason,
      width: 'minmax(0, 1fr)',
      cell: (row) =>
        row.reason === 'amountMismatch'
          ? texts.mismatch(formatRupeesAndPaise(row.amount), formatRupees(row.expected))
          : texts.reasons[row.reason],
    },
    { key: 'branch', header: texts.branch, width: '80px', cell: (row) => row.branch },
    {
      key: 'action',
      header: texts.action,
      width: '150px',
      cell: (row) => (
        <Button
          size="small"
          variant="outlined"
          aria-label={texts.markRefundedOf(row.paymentId)}
          onClick={() => setMarking(row)}
        >
          {texts.markRefunded}
        </Button>
      ),
    },
  ];

  return (
    <Stack component="section" aria-label={texts.heading} spacing={1.5} sx={{ mt: 4 }}>
      <Typography variant="h6" component="h2">
        {texts.heading}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {texts.intro}
      </Typography>
      <DataTable
        label={texts.table}
        columns={columns}
        rows={refunds.data ?? []}
        rowKey={(row) => row.paymentId}
        bodyHeight={240}
        minWidth={940}
        emptyText=""
        loading={refunds.isFetching}
        loadingLabel={texts.loading}
        loadError={refunds.isError && texts.loadFailed}
      />
      {marking && <MarkRefunded refund={marking} onDone={() => setMarking(null)} />}
    </Stack>
  );
}

function MarkRefunded({ refund, onDone }: { refund: OnlineRefund; onDone: () => void }) {
  const mark = useMarkRefunded();
  const [reference, setReference] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const confirm = () => {
    const checked = markOnlineRefundRequest.safeParse({ paymentId: refund.paymentId, reference });
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message ?? texts.saveFailed);
      return;
    }
    setFieldError(null);
    mark.submit(checked.data, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
        onDone();
      },
      onError: (error) =>
        reportFailure(error, texts.saveFailed, (message) =>
          setRefusal(message ?? texts.saveFailed),
        ),
    });
  };

  return (
    <ConfirmDialog
      title={texts.confirmTitle(refund.paymentId)}
      question={texts.confirmQuestion(formatRupees(refund.amount), refund.custname)}
      cancelLabel={texts.cancel}
      confirmLabel={texts.confirm}
      pendingLabel={texts.saving}
      pending={mark.isPending}
      error={refusal}
      onConfirm={confirm}
      onCancel={onDone}
    >
      <TextField
        label={texts.reference}
        name="reference"
        value={reference}
        onChange={(event) => setReference(event.target.value)}
        error={Boolean(fieldError)}
        helperText={fieldError}
        fullWidth
        sx={{ mt: 1 }}
        slotProps={{ htmlInput: { maxLength: 64 } }}
      />
    </ConfirmDialog>
  );
}
