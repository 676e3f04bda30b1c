import { useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/AddOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import SortIcon from '@mui/icons-material/SortOutlined';
import {
  PAGE_TITLES,
  TIER_DOWNGRADES,
  TIER_LIMITS,
  TIERS_TEXTS,
  formatRupees,
  readTypedNumber,
  tiersForm,
  type TierDowngrade,
  type TiersFormInput,
  type TiersSettings,
} from '@kanak/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useSaveTiers, useTiers } from './api';

const texts = TIERS_TEXTS;

type Field = 'code' | 'name' | 'minSpend' | 'earnPercent';
/** A tier as typed; `row` keeps React's key steady while rows are added, removed and ordered. */
type Row = Record<Field, string> & { row: number };
type RowErrors = Partial<Record<Field, string>>;

const downgradeOptions = TIER_DOWNGRADES.map((value) => ({
  value,
  label: texts.downgrades[value],
}));

/** Lowest spend first, as the ladder reads; rows without a number yet go last. */
const bySpend = (a: Row, b: Row) => {
  const [x, y] = [readTypedNumber(a.minSpend), readTypedNumber(b.minSpend)];
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
  return x - y;
};

/**
 * Tiers (/home/tiers, owner): the ladder of tiers by the spend of the last 12 months and what
 * each earns, and whether a tier falls on its anniversary or never. With no tiers every
 * customer earns the base rate.
 */
export function TiersPage() {
  const tiers = useTiers();
  return (
    <>
      <PageHeader title={PAGE_TITLES.tiers} />
      {tiers.isError && <Alert severity="error">{texts.loadFailed}</Alert>}
      {tiers.isPending && <CircularProgress aria-label={texts.loading} />}
      {tiers.data && <TiersEditor key={JSON.stringify(tiers.data)} current={tiers.data} />}
    </>
  );
}

function TiersEditor({ current }: { current: TiersSettings }) {
  const save = useSaveTiers();
  const nextRow = useRef(current.tiers.length);
  const [rows, setRows] = useState<Row[]>(() =>
    current.tiers.map((tier, row) => ({
      row,
      code: tier.code,
      name: tier.name,
      minSpend: String(tier.minSpend),
      earnPercent: String(tier.earnPercent),
    })),
  );
  const [downgrade, setDowngrade] = useState<TierDowngrade>(current.downgrade);
  const [errors, setErrors] = useState<Record<number, RowErrors>>({});
  const [listError, setListError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<TiersFormInput | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);

  const change = (row: number, field: Field, value: string) => {
    setRows((all) => all.map((r) => (r.row === row ? { ...r, [field]: value } : r)));
    setErrors((all) => ({ ...all, [row]: { ...all[row], [field]: undefined } }));
  };

  const add = () => {
    const row = nextRow.current++;
    setRows((all) => [...all, { row, code: '', name: '', minSpend: '', earnPercent: '100' }]);
  };

  const send = (form: TiersFormInput, inDialog: boolean) =>
    save.submit(form, {
      onSuccess: (answer) => {
        setConfirming(null);
        if (answer.message) showAlert('success', answer.message);
      },
      onError: (error) =>
        reportFailure(error, texts.saveFailed, (message) =>
          (inDialog ? setDialogError : setRefusal)(message ?? texts.saveFailed),
        ),
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isRunning()) return;
    setRefusal(null);
    const ordered = [...rows].sort(bySpend);
    const form: TiersFormInput = {
      tiers: ordered.map((r) => ({
        code: r.code.trim().toUpperCase(),
        name: r.name.trim(),
        minSpend: readTypedNumber(r.minSpend),
        earnPercent: readTypedNumber(r.earnPercent),
      })),
      downgrade,
    };
    // The contract's own rules, in the words the server would answer with, beside each field.
    const checked = tiersForm.safeParse(form);
    if (!checked.success) {
      const found: Record<number, RowErrors> = {};
      let wholeList: string | null = null;
      for (const issue of checked.error.issues) {
        const [, index, field] = issue.path;
        const row = typeof index === 'number' ? ordered[index] : undefined;
        if (row && typeof field === 'string') {
          const rowErrors = (found[row.row] ??= {});
          rowErrors[field as Field] ??= issue.message;
        } else {
          wholeList ??= issue.message;
        }
      }
      setErrors(found);
      setListError(wholeList);
      return;
    }
    setErrors({});
    setListError(null);
    setRows(ordered);
    // Tiers that never fell start falling: the anniversaries missed meanwhile all come due.
    if (current.downgrade === 'never' && downgrade === 'anniversary') {
      setDialogError(null);
      setConfirming(form);
    } else {
      send(form, false);
    }
  };

  const field = (r: Row, n: number, name: Field, label: string, help?: string) => {
    const error = errors[r.row]?.[name];
    const spend = name === 'minSpend' ? readTypedNumber(r.minSpend) : Number.NaN;
    const numeric = name === 'minSpend' || name === 'earnPercent';
    return (
      <TextField
        label={label}
        name={`${name}-${n}`}
        value={r[name]}
        onChange={(event) => change(r.row, name, event.target.value)}
        error={Boolean(error)}
        // The spend as the shop reads it, ₹1,00,000, while typing it.
        helperText={error ?? (Number.isFinite(spend) && spend >= 0 ? formatRupees(spend) : help)}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: numeric
            ? { inputMode: name === 'minSpend' ? 'decimal' : 'numeric' }
            : {
                maxLength: name === 'code' ? TIER_LIMITS.codeMaxLength : TIER_LIMITS.nameMaxLength,
              },
        }}
        fullWidth
      />
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 960 }}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={2.5}>
          <Typography variant="body2" color="text.secondary">
            {texts.intro}
          </Typography>
          {rows.length === 0 && <Alert severity="info">{texts.none}</Alert>}
          {listError && (
            <Alert severity="error" role="alert">
              {listError}
            </Alert>
          )}
          {rows.map((r, index) => {
            const n = index + 1;
            return (
              <Box
                key={r.row}
                role="group"
                aria-label={texts.tier(n)}
                sx={{
                  display: 'grid',
                  gap: 1.5,
                  alignItems: 'start',
                  // A phone: code and name, then spend and percent; a desk: one line a tier.
                  gridTemplateColumns: {
                    xs: 'minmax(0, 1fr) minmax(0, 1fr) 40px',
                    md: '130px minmax(0, 1fr) 220px 130px 40px',
                  },
                  pb: { xs: 2, md: 0 },
                  borderBottom: { xs: 1, md: 0 },
                  borderColor: 'divider',
                }}
              >
                {field(r, n, 'code', texts.code, texts.codeHelp)}
                {field(r, n, 'name', texts.name)}
                <IconButton
                  aria-label={texts.remove(n)}
                  onClick={() => setRows((all) => all.filter((other) => other.row !== r.row))}
                  sx={{ mt: 1, gridColumn: { xs: 3, md: 5 }, gridRow: 1 }}
                >
                  <DeleteIcon />
                </IconButton>
                {field(r, n, 'minSpend', texts.minSpend)}
                {field(r, n, 'earnPercent', texts.earnPercent, texts.earnPercentHelp)}
              </Box>
            );
          })}
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<AddIcon />}
              onClick={add}
              disabled={rows.length >= TIER_LIMITS.tiersMax}
            >
              {texts.add}
            </Button>
            <Button
              variant="outlined"
              startIcon={<SortIcon />}
              onClick={() => setRows((all) => [...all].sort(bySpend))}
              disabled={rows.length < 2}
            >
              {texts.order}
            </Button>
          </Stack>
          <SelectField
            label={texts.downgrade}
            name="downgrade"
            value={downgrade}
            options={downgradeOptions}
            onChange={setDowngrade}
          />
          {refusal && (
            <Alert severity="error" role="alert">
              {refusal}
            </Alert>
          )}
          <div>
            <SubmitButton pending={save.isPending} pendingLabel={texts.saving}>
              {texts.save}
            </SubmitButton>
          </div>
        </Stack>
      </form>
      {confirming && (
        <ConfirmDialog
          title={texts.confirmTitle}
          question={texts.confirmQuestion}
          cancelLabel={texts.cancel}
          confirmLabel={texts.confirm}
          pendingLabel={texts.saving}
          pending={save.isPending}
          error={dialogError}
          onConfirm={() => send(confirming, true)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </Paper>
  );
}
