import { useState } from 'react';
import Stack from '@mui/material/Stack';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { REPORT_TEXTS, type ReportName } from '@kanak/contract';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { reportFailure } from '../../lib/failure';
import { downloadReportCsv, type ReportFilter } from './api';

const texts = REPORT_TEXTS;

interface ReportActionsProps {
  name: ReportName;
  /** The filter the report shows: what is printed and saved. */
  asked: ReportFilter;
  /** The report has no rows: nothing to print or save. */
  empty: boolean;
  /** The whole report is being fetched for print. */
  printing: boolean;
  print: () => void;
}

/** Beside a report's heading: Print, and the whole report as CSV. */
export function ReportActions({ name, asked, empty, printing, print }: ReportActionsProps) {
  const today = useStoreToday();
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadReportCsv(name, asked, today);
    } catch (error) {
      reportFailure(error, texts.csvFailed);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <SubmitButton
        type="button"
        variant="outlined"
        pending={printing}
        pendingLabel={texts.printing}
        disabled={empty}
        startIcon={<PrintIcon />}
        onClick={print}
      >
        {texts.print}
      </SubmitButton>
      <SubmitButton
        type="button"
        variant="outlined"
        pending={downloading}
        pendingLabel={texts.csvPending}
        disabled={empty}
        startIcon={<DownloadIcon />}
        onClick={() => void download()}
      >
        {texts.csv}
      </SubmitButton>
    </Stack>
  );
}
