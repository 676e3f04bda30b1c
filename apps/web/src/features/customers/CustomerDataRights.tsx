import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/Print';
import dayjs from 'dayjs';
import {
  CONSENT_LABELS,
  CONSENT_PURPOSES,
  DATA_RIGHTS_TEXTS,
  MESSAGES,
  customerDataFileName,
  type ConsentEvent,
  type ConsentPurpose,
  type ConsentsWithHistory,
  type CustomerDataExport,
  type CustomerProfile,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { saveJsonFile } from '../../components/saveFile';
import { SwitchControl } from '../../components/SwitchControl';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useMayCall } from '../../lib/me';
import { useCustomerData, useRecordConsent } from './api';
import { EraseCustomerDialog } from './EraseCustomerDialog';

const texts = DATA_RIGHTS_TEXTS;

/** When a consent was recorded, in the shop's DD/MM/YYYY with the time. */
export const formatRecordedAt = (iso: string) => dayjs(iso).format('DD/MM/YYYY HH:mm');

const how = (event: ConsentEvent) =>
  `${texts.method[event.method as keyof typeof texts.method] ?? event.method}, ${texts.noticeVersion(event.noticeVersion)}`;

const historyColumns: DataColumn<ConsentEvent>[] = [
  {
    key: 'when',
    header: 'When',
    width: '150px',
    nowrap: true,
    cell: (event) => formatRecordedAt(event.recordedAt),
  },
  {
    key: 'purpose',
    header: 'Purpose',
    width: 'minmax(0, 2fr)',
    cell: (event) => CONSENT_LABELS[event.purpose],
  },
  {
    key: 'choice',
    header: 'Choice',
    width: '110px',
    // One word: never broken in the middle ("Withdraw-n").
    nowrap: true,
    cell: (event) => (event.granted ? texts.granted : texts.withdrawn),
  },
  { key: 'by', header: 'By', width: 'minmax(0, 1fr)', cell: (event) => event.recordedBy },
  { key: 'how', header: 'How', width: 'minmax(0, 1.5fr)', cell: how },
];

interface Props {
  customer: CustomerProfile;
  /** The server's answer after a consent was recorded. */
  onConsents: (consents: ConsentsWithHistory) => void;
  /** The customer is gone: the screen starts over. */
  onErased: () => void;
  /** A copy of the customer's data to print. */
  onPrint: (data: CustomerDataExport) => void;
}

/**
 * Consent per purpose (with the history of every grant and withdrawal), the customer's copy of
 * their data (JSON and printable), and erasure (owner). Each control shows only to the roles
 * that may use it.
 */
export function CustomerDataRights({ customer, onConsents, onErased, onPrint }: Props) {
  const consent = useRecordConsent();
  const exporter = useCustomerData();
  const mayExport = useMayCall('customerDataExport');
  const mayErase = useMayCall('eraseCustomer');
  const [erasing, setErasing] = useState(false);
  // The switch pressed, waiting for staff to confirm what it records.
  const [asked, setAsked] = useState<{ purpose: ConsentPurpose; granted: boolean } | null>(null);

  const record = ({ purpose, granted }: { purpose: ConsentPurpose; granted: boolean }) =>
    consent.submit(
      { custid: customer.custid, purpose, granted },
      {
        onSuccess: (body) => {
          setAsked(null);
          if (body.data) onConsents(body.data);
          if (body.message) showAlert('success', body.message);
        },
        onError: (error) => {
          setAsked(null);
          const failure = readFailure(error);
          if (failure.kind === 'refused')
            showAlert('warning', failure.message ?? MESSAGES.saveFailed);
          else if (failure.kind === 'exception') showAlert('error', MESSAGES.saveFailed);
        },
      },
    );

  const fetchData = (then: (data: CustomerDataExport) => void) =>
    exporter.mutate(customer.custid, {
      onSuccess: then,
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'sessionExpired') return;
        const refusal = failure.kind === 'refused' ? failure.message : null;
        showAlert('error', refusal ?? MESSAGES.exportFailed);
      },
    });

  return (
    <Paper variant="outlined" sx={{ maxWidth: 1100, mt: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id="data-rights-title" component="h2" variant="h5" sx={{ mb: 1.5 }}>
        {texts.heading}
      </Typography>
      {customer.consentHistory.length === 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {texts.consentPrompt}
        </Alert>
      )}
      <FormGroup>
        {CONSENT_PURPOSES.map((purpose) => (
          <SwitchControl
            key={purpose}
            checked={customer.consents[purpose]}
            disabled={consent.isPending}
            onChange={(granted) => setAsked({ purpose, granted })}
          >
            {CONSENT_LABELS[purpose]}
          </SwitchControl>
        ))}
      </FormGroup>
      <Typography component="h3" variant="subtitle1" sx={{ mt: 2, mb: 1 }}>
        {texts.consentHistory}
      </Typography>
      <DataTable
        label={texts.consentHistory}
        columns={historyColumns}
        rows={customer.consentHistory}
        rowKey={(event) => `${event.recordedAt}-${event.purpose}-${String(event.granted)}`}
        bodyHeight={220}
        minWidth={640}
        emptyText={texts.noHistory}
      />
      {(mayExport || mayErase) && (
        <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 3, flexWrap: 'wrap' }}>
          {mayExport && (
            <>
              <Button
                variant="outlined"
                startIcon={<DownloadIcon />}
                disabled={exporter.isPending}
                onClick={() =>
                  fetchData((data) => saveJsonFile(data, customerDataFileName(customer.custid)))
                }
              >
                {texts.downloadJson}
              </Button>
              <Button
                variant="outlined"
                startIcon={<PrintIcon />}
                disabled={exporter.isPending}
                onClick={() => fetchData(onPrint)}
              >
                {texts.printData}
              </Button>
            </>
          )}
          {mayErase && (
            <Button
              variant="outlined"
              color="error"
              startIcon={<DeleteForeverIcon />}
              onClick={() => setErasing(true)}
              sx={{ ml: { sm: 'auto !important' } }}
            >
              {texts.erase}
            </Button>
          )}
        </Stack>
      )}
      {asked && (
        <ConfirmDialog
          title={texts.consentConfirmTitle(asked.granted)}
          cancelLabel={texts.consentCancel}
          confirmLabel={texts.consentConfirm}
          pendingLabel={texts.consentConfirm}
          pending={consent.isPending}
          error={null}
          // As the question, the dialog is described by it: a screen reader reads it on opening.
          question={texts.consentConfirmBody(
            customer.custname,
            CONSENT_LABELS[asked.purpose],
            asked.granted,
          )}
          onConfirm={() => record(asked)}
          onCancel={() => setAsked(null)}
        />
      )}
      {erasing && (
        <EraseCustomerDialog
          customer={customer}
          onClose={() => setErasing(false)}
          onErased={() => {
            setErasing(false);
            onErased();
          }}
        />
      )}
    </Paper>
  );
}
