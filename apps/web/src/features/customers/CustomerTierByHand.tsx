import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { TIER_BY_HAND_TEXTS, customerTierRequest } from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateField } from '../../components/DateField';
import { SelectField } from '../../components/SelectField';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { useMayCall } from '../../lib/me';
import { tiersQuery } from '../../lib/tiers';
import { useSetCustomerTier } from './api';

const texts = TIER_BY_HAND_TEXTS;

/** The owner's button to set a customer's tier by hand until a date (or end one so set). */
export function CustomerTierByHand({ custid }: { custid: number }) {
  const maySet = useMayCall('customerTier');
  const [open, setOpen] = useState(false);
  if (!maySet) return null;
  return (
    <>
      <Button size="small" variant="outlined" onClick={() => setOpen(true)}>
        {texts.open}
      </Button>
      {open && <TierDialog custid={custid} onClose={() => setOpen(false)} />}
    </>
  );
}

function TierDialog({ custid, onClose }: { custid: number; onClose: () => void }) {
  const today = useStoreToday();
  const tiers = useQuery(tiersQuery);
  const set = useSetCustomerTier();
  const [tier, setTier] = useState('');
  const [until, setUntil] = useState('');
  // The choice is not one to send (a tier without its date): said in the dialog.
  const [problem, setProblem] = useState<string | null>(null);

  const options = [
    { value: '', label: texts.none },
    ...(tiers.data?.tiers ?? []).map((t) => ({
      value: t.code,
      label: texts.option(t.name, t.code),
    })),
  ];

  const confirm = () => {
    // No tier ends the one set by hand, and needs no date.
    const checked = customerTierRequest.safeParse({
      custid,
      tier: tier || null,
      until: tier && until ? until : undefined,
    });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? texts.failed);
      return;
    }
    setProblem(null);
    set.submit(checked.data, {
      onSuccess: (answer) => {
        onClose();
        if (answer.message) showAlert('success', answer.message);
      },
    });
  };

  return (
    <ConfirmDialog
      title={texts.title}
      cancelLabel={texts.cancel}
      confirmLabel={texts.confirm}
      pendingLabel={texts.saving}
      pending={set.isPending}
      error={problem ?? set.error}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography variant="body2">{texts.intro}</Typography>
        {tiers.isError && <Alert severity="error">{texts.tiersFailed}</Alert>}
        <SelectField
          label={texts.tier}
          name="tier"
          value={tier}
          options={options}
          onChange={setTier}
        />
        {tier && (
          <DateField
            label={texts.until}
            name="until"
            value={until}
            onChange={setUntil}
            min={today}
          />
        )}
      </Stack>
    </ConfirmDialog>
  );
}
