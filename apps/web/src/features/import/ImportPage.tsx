import { useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  IMPORT_KINDS,
  IMPORT_TEXTS,
  PAGE_TITLES,
  type ImportKind,
  type ImportProgress,
  type ImportResult,
} from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { readFailure } from '../../lib/api';
import { downloadTemplate, sendImport } from './api';
import { ImportReport } from './ImportReport';

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
          <ImportReport
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
