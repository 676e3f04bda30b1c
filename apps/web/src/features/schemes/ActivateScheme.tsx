import { useState } from 'react';
import Button from '@mui/material/Button';
import PlayArrowIcon from '@mui/icons-material/PlayCircleOutlined';
import { SCHEME_TEXTS, formatRupees, type InstallmentReceipt } from '@kanak/contract';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { useActivateScheme } from './api';
import { PaymentDialog, type PaymentValues } from './PaymentDialog';
import { ReceiptDialog } from '../../components/ReceiptDialog';

const texts = SCHEME_TEXTS.activation;

/** What activating needs of an Inactive scheme, whichever screen lists it. */
export interface SchemeToActivate {
  schemeid: number;
  amount: number;
  startdt: string;
}

/** 'Activate' on an Inactive scheme's row or statement. */
export function ActivateButton({ schemeid, onClick }: { schemeid: number; onClick: () => void }) {
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<PlayArrowIcon />}
      aria-label={texts.action(schemeid)}
      onClick={onClick}
    >
      {texts.button}
    </Button>
  );
}

/**
 * Activation: the first installment's date, mode and reference, then its receipt to print.
 * Mounted while open; `onClose` once the dialog is cancelled or the receipt put away.
 */
export function ActivateSchemeDialog({
  scheme,
  onClose,
}: {
  scheme: SchemeToActivate;
  onClose: () => void;
}) {
  const today = useStoreToday();
  const activate = useActivateScheme();
  const [receipt, setReceipt] = useState<InstallmentReceipt | null>(null);

  const submit = (values: PaymentValues) =>
    activate.submit(
      { schemeid: scheme.schemeid, ...values },
      {
        onSuccess: ({ message, receipt: made }) => {
          setReceipt(made);
          showAlert('success', texts.activated(message, made.receiptNo));
        },
      },
    );

  if (receipt) return <ReceiptDialog receipt={receipt} onClose={onClose} />;
  return (
    <PaymentDialog
      title={texts.title(scheme.schemeid)}
      text={texts.text(formatRupees(scheme.amount))}
      submitLabel={texts.activate}
      today={today}
      min={scheme.startdt}
      change={activate}
      onSubmit={submit}
      onClose={onClose}
    />
  );
}
