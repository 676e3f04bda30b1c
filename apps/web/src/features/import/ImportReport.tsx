import { useId, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  IMPORT_MESSAGES,
  IMPORT_REPORT_COLUMNS,
  IMPORT_TEXTS,
  type ImportKind,
  type ImportResult,
} from '@kanak/contract';
import { readFailure } from '../../lib/api';
import { downloadAllProblems, downloadReport } from './api';

const texts = IMPORT_TEXTS;

/**
 * The report of a file checked or imported: what the import does (or did), its figures, and
 * every bad row with its reason, downloadable as CSV.
 */
export function ImportReport({
  result,
  kind,
  file,
  importing,
  onConfirm,
}: {
  result: ImportResult;
  kind: ImportKind;
  file: File;
  /** The confirmed import is being written. */
  importing: boolean;
  /** Imports the file checked; unset while the screen is busy. */
  onConfirm?: () => void;
}) {
  const figures: [string, number][] = [
    [texts.rows, result.rows],
    [texts.valid, result.valid],
    [texts.created, result.created],
    [texts.updated, result.updated],
    [texts.errors, result.errorCount],
  ];
  const heading = useId();
  const problemsTable = useRef<HTMLTableElement>(null);
  const skipped = result.rows - result.valid;
  const toImport = result.created + result.updated;
  const unchanged = result.valid - toImport;
  // Focus brings the table into view too.
  const seeWhy = () => problemsTable.current?.focus();
  // The answer lists the first problems only: the whole list is the server's to write.
  const listedAll = result.errors.length === result.errorCount;
  const [downloading, setDownloading] = useState(false);
  const [downloadFailure, setDownloadFailure] = useState<string | null>(null);
  const downloadAll = async () => {
    setDownloading(true);
    setDownloadFailure(null);
    try {
      await downloadAllProblems(kind, file);
    } catch (error) {
      const read = readFailure(error);
      setDownloadFailure((read.kind === 'refused' && read.message) || texts.failed);
    } finally {
      setDownloading(false);
    }
  };
  return (
    // A region named by its heading: a screen reader's list of landmarks leads to the report.
    <Paper component="section" sx={{ p: 2 }} aria-labelledby={heading}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id={heading}>
          {texts.report}
        </Typography>
        {result.dryRun ? (
          // The check's outcome, to confirm: what the import of this file will do.
          <Alert severity="info">
            <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
              <Typography>{texts.checked}</Typography>
              <Typography>
                {texts.willImport(kind, toImport)}
                {skipped > 0 && (
                  <>
                    {', '}
                    {texts.skipped(skipped)} (
                    <Link component="button" type="button" onClick={seeWhy}>
                      {texts.seeWhy}
                    </Link>
                    )
                  </>
                )}
                {unchanged > 0 && `, ${texts.unchanged(unchanged)}`}.
              </Typography>
              <Button
                variant="contained"
                disabled={!onConfirm || result.valid === 0}
                onClick={onConfirm}
              >
                {importing ? texts.importing : texts.confirm}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Alert severity="success">{IMPORT_MESSAGES.done(result.created, result.updated)}</Alert>
        )}
        {result.sheet && (
          <Typography>
            {texts.sheet}: {result.sheet}
          </Typography>
        )}
        {result.notices.map((notice) => (
          <Alert key={notice} severity="warning">
            {notice}
          </Alert>
        ))}
        <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {figures.map(([label, value]) => (
            <Typography key={label}>
              {label}: <strong>{value.toLocaleString('en-IN')}</strong>
            </Typography>
          ))}
        </Stack>
        {result.errorCount === 0 ? (
          <Typography>{texts.noErrors}</Typography>
        ) : (
          <>
            {listedAll ? (
              <Button
                variant="outlined"
                sx={{ alignSelf: 'flex-start' }}
                onClick={() => downloadReport(result)}
              >
                {texts.download}
              </Button>
            ) : (
              <Stack
                direction="row"
                spacing={2}
                useFlexGap
                sx={{ alignItems: 'center', flexWrap: 'wrap' }}
              >
                <Typography>
                  {texts.showingFirst(result.errors.length, result.errorCount)}
                </Typography>
                <Button
                  variant="outlined"
                  disabled={downloading}
                  onClick={() => void downloadAll()}
                >
                  {texts.downloadAll}
                </Button>
              </Stack>
            )}
            {downloadFailure && <Alert severity="error">{downloadFailure}</Alert>}
            {/* Focused by "see why": the rows skipped and the reason of each. */}
            <Table
              ref={problemsTable}
              tabIndex={-1}
              size="small"
              sx={{ overflowX: 'auto', display: 'block' }}
            >
              <TableHead>
                <TableRow>
                  {IMPORT_REPORT_COLUMNS.map((label) => (
                    <TableCell key={label}>{label}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {result.errors.map((error, index) => (
                  <TableRow key={`${error.row}-${error.column}-${index}`}>
                    <TableCell>{error.row}</TableCell>
                    <TableCell>{error.name}</TableCell>
                    <TableCell>{error.column}</TableCell>
                    {/* The file's own text: kept as typed, spaces and all. */}
                    <TableCell sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {error.value}
                    </TableCell>
                    <TableCell>{error.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </Stack>
    </Paper>
  );
}
