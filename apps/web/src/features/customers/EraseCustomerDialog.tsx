import { useState } from 'react';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DATA_RIGHTS_TEXTS, LEDGER_TEXTS, type CustomerProfile } from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { showAlert } from '../../lib/app-state';
import { useEraseCustomer } from './api';

const texts = DATA_RIGHTS_TEXTS;

/** Erasure asks for the customer's mobile number typed out: a slip of the mouse cannot do it. */
export function EraseCustomerDialog({
  customer,
  onClose,
  onErased,
}: {
  customer: CustomerProfile;
  onClose: () => void;
  onErased: () => void;
}) {
  const erase = useEraseCustomer();
  const [typed, setTyped] = useState('');
  // The number typed is not the customer's: said in the dialog, nothing sent.
  const [mismatch, setMismatch] = useState<string | null>(null);

  const confirm = () => {
    if (typed.trim() !== customer.mobileno) {
      setMismatch(texts.eraseConfirmLabel(customer.mobileno));
      return;
    }
    setMismatch(null);
    erase.submit(customer.custid, {
      onSuccess: (body) => {
        if (body.message) showAlert('success', body.message);
        onErased();
      },
    });
  };

  return (
    <ConfirmDialog
      title={texts.eraseTitle}
      cancelLabel={LEDGER_TEXTS.customerProfile.cancel}
      confirmLabel={texts.eraseConfirm}
      pendingLabel={texts.eraseConfirm}
      pending={erase.isPending}
      error={mismatch ?? erase.error}
      danger
      onConfirm={confirm}
      onCancel={onClose}
    >
      <Typography sx={{ mb: 2 }}>
        {customer.custname} ({customer.mobileno}). {texts.eraseBody}
      </Typography>
      <TextField
        label={texts.eraseConfirmLabel(customer.mobileno)}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        fullWidth
        autoComplete="off"
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
      />
    </ConfirmDialog>
  );
}
