import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { ACCOUNTING_TEXTS, PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { useAccountingSettings } from './api';
import { HandOff } from './TallyHandOff';
import { ImportHelp } from './TallyImportHelp';
import { LedgersSetUp } from './TallyLedgers';

const texts = ACCOUNTING_TEXTS;

/**
 * Accounting (/home/accounting, owner): first what is done every month — the days' vouchers as
 * a Tally import file, or sent straight to Tally with its answer — and how to import the file
 * in TallyPrime, with the group each ledger goes under; then the one-time set-up of the Tally
 * company and ledger names, folded away once saved.
 */
export function AccountingPage() {
  const settings = useAccountingSettings();
  return (
    <>
      <PageHeader title={PAGE_TITLES.accounting} />
      {settings.isError && <Alert severity="error">{texts.loadFailed}</Alert>}
      {settings.isPending && <CircularProgress aria-label={texts.loading} />}
      {settings.data && (
        <Stack spacing={3} sx={{ maxWidth: 720 }}>
          <HandOff razorpaySettlements={settings.data.razorpaySettlements} />
          <ImportHelp current={settings.data} />
          <LedgersSetUp current={settings.data} />
        </Stack>
      )}
    </>
  );
}
