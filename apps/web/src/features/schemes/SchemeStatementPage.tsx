import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  type InstallmentReceipt,
  type SchemeStatementRow,
} from '@kanak/contract';
import { useSearchParams } from 'react-router';
import { FilterPanel, GenerateButton } from '../../components/FilterPanel';
import { SHOWN_ONLY } from '../../components/shownOnly';
import { PageHeader } from '../../components/PageHeader';
import { saveFile } from '../../components/saveFile';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { statementQuery } from './api';
import { StatementPrint } from './PrintSheet';
import { ReceiptDialog } from '../../components/ReceiptDialog';
import { reprintedReceipt, statementCsv } from './schemeFormat';
import { StatementActions } from './StatementActions';
import { StatementTable } from './StatementView';

const texts = SCHEME_TEXTS.statement;

/** Scheme Statement (/home/scheme-statement): one scheme's installments, print and CSV. */
export function SchemeStatementPage() {
  const today = useStoreToday();
  // Opened from a scheme list (?schemeid=N): that scheme's statement at once.
  const [searchParams] = useSearchParams();
  const linked = /^\d{1,10}$/.test(searchParams.get('schemeid') ?? '')
    ? Number(searchParams.get('schemeid'))
    : null;
  const [idInput, setIdInput] = useState(linked === null ? '' : String(linked));
  const [submitted, setSubmitted] = useState<number | null>(linked);
  // Another scheme's link while this screen is open: show that scheme.
  const [shownLink, setShownLink] = useState(linked);
  if (linked !== shownLink) {
    setShownLink(linked);
    if (linked !== null) {
      setIdInput(String(linked));
      setSubmitted(linked);
    }
  }
  const [receipt, setReceipt] = useState<{
    receipt: InstallmentReceipt;
    duplicate: boolean;
  } | null>(null);

  const result = useQuery({ ...statementQuery(submitted), placeholderData: keepPreviousData });

  useEffect(() => {
    if (result.error) reportFailure(result.error, MESSAGES.statementFailed, 'warn');
  }, [result.error, result.errorUpdatedAt]);

  // A failed (re)generation clears the screen rather than leave an older statement up.
  const statement = result.isError ? null : (result.data ?? null);
  const scheme = statement?.scheme ?? null;
  const rows = statement?.rows ?? [];
  const loading = result.isFetching;

  const generate = () => {
    const id = idInput.replace(/\s+/g, '');
    if (id === '') return showAlert('warning', MESSAGES.schemeIdRequired);
    if (!/^\d{1,10}$/.test(id)) return showAlert('warning', MESSAGES.schemeIdDigits);
    if (Number(id) === submitted) void result.refetch();
    else setSubmitted(Number(id));
  };

  const reprint = (row: SchemeStatementRow, index: number) => {
    const again = statement && reprintedReceipt(statement, row, index);
    if (again) setReceipt({ duplicate: true, receipt: again });
  };

  const downloadCsv = () => {
    if (scheme) saveFile(statementCsv(rows), texts.csvFileName(scheme.schemeid));
  };

  return (
    <>
      <Box className="no-print">
        <PageHeader title={PAGE_TITLES.schemeStatement} />
        <FilterPanel
          title={texts.form}
          columns={{ sm: '1fr auto', lg: '1fr auto 1.5fr 1fr' }}
          onSubmit={generate}
        >
          <TextField
            label={texts.schemeId}
            name="schemeid"
            value={idInput}
            // As typed: "abc" is told it is no Scheme ID, not that the box is blank.
            onChange={(event) => setIdInput(event.target.value)}
            autoFocus
            autoComplete="off"
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 20 } }}
          />
          <GenerateButton pending={loading} pendingLabel={texts.generating}>
            {texts.generate}
          </GenerateButton>
          <TextField
            label={texts.name}
            value={statement?.custname ?? ''}
            fullWidth
            slotProps={SHOWN_ONLY}
          />
          <TextField
            label={texts.mobile}
            value={statement?.mobileno ?? ''}
            fullWidth
            slotProps={SHOWN_ONLY}
          />
        </FilterPanel>

        <Box component="section" aria-label={texts.table}>
          {scheme && (
            <StatementActions
              scheme={scheme}
              rows={rows}
              today={today}
              onReceipt={(made) => setReceipt({ receipt: made, duplicate: false })}
            />
          )}
          <StatementTable rows={rows} loading={loading} onReprint={reprint} />
          <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<PrintIcon />}
              disabled={!scheme || rows.length === 0}
              onClick={() => window.print()}
            >
              {texts.print}
            </Button>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={!scheme || rows.length === 0}
              onClick={downloadCsv}
            >
              {texts.downloadCsv}
            </Button>
          </Stack>
        </Box>
      </Box>

      {statement && <StatementPrint statement={statement} />}

      {receipt && (
        <ReceiptDialog
          receipt={receipt.receipt}
          duplicate={receipt.duplicate}
          onClose={() => setReceipt(null)}
        />
      )}
    </>
  );
}
