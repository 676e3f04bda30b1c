import { useId, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
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
  IMPORT_KINDS,
  IMPORT_MESSAGES,
  IMPORT_REPORT_COLUMNS,
  IMPORT_TEXTS,
  PAGE_TITLES,
  type ImportKind,
  type ImportProgress,
  type ImportResult,
} from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { readFailure } from '../../lib/api';
import { downloadAllProblems, downloadReport, downloadTemplate, sendImport } from './api';

const texts = IMPORT_TEXTS;

/**
 * Import (/home/import, owner): a CSV or Excel export of other software (or the template,
 * filled in) checked first: what the import will do, and the report of every bad row with its
 * value and the customer's name, downloadable as CSV. The owner then confirms, and the same
 * file is imported: the upload's progress, then the rows written of the file's rows.
 */
export function ImportPage() {
  const [kind, setKind] = useState<ImportKind>('customers');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<null | {
    dryRun: boolean;
    share: number;
    rows?: ImportProgress;
  }>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The browser's own file chooser, opened by the button below: a label styled as a button
  // would carry a role a label may not have, and reads as neither to a screen reader.
  const fileInput = useRef<HTMLInputElement>(null);

  async function send(dryRun: boolean) {
    if (!file || busy) return;
    setBusy({ dryRun, share: 0 });
    setFailure(null);
    try {
      setResult(
        await sendImport(
          kind,
          file,
          dryRun,
          (share) => setBusy((now) => now && { ...now, share }),
          (rows) => setBusy((now) => now && { ...now, share: 1, rows }),
        ),
      );
    } catch (error) {
      const read = readFailure(error);
      setFailure((read.kind === 'refused' && read.message) || texts.failed);
      setResult(null);
    } finally {
      setBusy(null);
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(true);
  };
  const uploading = busy !== null && busy.share < 1;
  const rows = busy?.rows && busy.rows.total > 0 ? busy.rows : null;
  const percent = !busy
    ? 0
    : Math.round(100 * (uploading ? busy.share : rows ? rows.rows / rows.total : 0));

  return (
    <>
      <PageHeader title={PAGE_TITLES.importData} />
      <Stack spacing={3} sx={{ maxWidth: 900 }}>
        <Typography>{texts.intro}</Typography>
        <Paper component="form" onSubmit={submit} sx={{ p: 2 }}>
          <Stack spacing={2}>
            <SelectField
              label={texts.kind}
              name="kind"
              value={kind}
              onChange={(value) => {
                setKind(value as ImportKind);
                setResult(null);
              }}
              options={IMPORT_KINDS.map((value) => ({ value, label: texts.kinds[value] }))}
            />
            <Typography variant="body2">{texts.columnsHelp[kind]}</Typography>
            <Typography variant="body2">{texts.mobileHelp}</Typography>
            <Stack
              direction="row"
              spacing={2}
              useFlexGap
              sx={{ alignItems: 'center', flexWrap: 'wrap' }}
            >
              <Button variant="text" onClick={() => downloadTemplate(kind)}>
                {texts.template}
              </Button>
              <Typography variant="body2">{texts.templateHelp}</Typography>
            </Stack>
            <Button
              variant="outlined"
              onClick={() => fileInput.current?.click()}
              sx={{ alignSelf: 'flex-start' }}
            >
              {file ? file.name : texts.file}
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              aria-label={texts.file}
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setResult(null);
              }}
            />
            <Button
              type="submit"
              variant="outlined"
              disabled={!file || busy !== null}
              sx={{ alignSelf: 'flex-start' }}
            >
              {busy?.dryRun ? texts.checking : texts.check}
            </Button>
            {busy && (
              <Stack spacing={1}>
                <LinearProgress
                  variant={uploading || rows ? 'determinate' : 'indeterminate'}
                  value={percent}
                  aria-label={busy.dryRun ? texts.checking : texts.importing}
                />
                <Typography variant="body2" role="status">
                  {uploading
                    ? texts.uploaded(percent)
                    : busy.dryRun
                      ? texts.checking
                      : rows
                        ? texts.imported(rows.rows, rows.total)
                        : texts.importing}
                </Typography>
              </Stack>
            )}
          </Stack>
        </Paper>
        {failure && <Alert severity="error">{failure}</Alert>}
        {result && file && (
          <Report
            result={result}
            kind={kind}
            file={file}
            importing={busy !== null && !busy.dryRun}
            onConfirm={busy === null ? () => void send(false) : undefined}
          />
        )}
      </Stack>
    </>
  );
}

function Report({
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
