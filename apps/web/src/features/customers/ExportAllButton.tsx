import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DownloadIcon from '@mui/icons-material/Download';
import { LEDGER_TEXTS, MESSAGES } from '@kanak/contract';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useMayCall } from '../../lib/me';
import { useExportCustomers } from './api';

const texts = LEDGER_TEXTS.customerProfile;

/** Export All: every customer as customer_list.csv, for the roles that may export. */
export function ExportAllButton() {
  const mayExport = useMayCall('exportTicket');
  const exporter = useExportCustomers();
  if (!mayExport) return null;

  const exportAll = () =>
    exporter.mutate(undefined, {
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'sessionExpired') return;
        const empty = failure.kind === 'refused' && failure.status === 404;
        showAlert('error', empty ? MESSAGES.noExportData : MESSAGES.exportFailed);
      },
    });

  return (
    <Button
      type="button"
      variant="outlined"
      color="secondary"
      disabled={exporter.isPending}
      onClick={exportAll}
      startIcon={
        exporter.isPending ? (
          <CircularProgress size={18} color="inherit" aria-label={texts.exporting} />
        ) : (
          <DownloadIcon />
        )
      }
      sx={{ ml: { sm: 'auto !important' }, color: 'secondary.dark' }}
    >
      {texts.exportAll}
    </Button>
  );
}
