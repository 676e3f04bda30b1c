import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  PAGE_TITLES,
  POINTS_RULES_TEXTS,
  type PointsRules,
  pointsRulesForm,
  readTypedNumber,
} from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { SubmitButton } from '../../components/SubmitButton';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { usePointsRules, useSavePointsRules, type RulesForm } from './api';

const texts = POINTS_RULES_TEXTS;

type Field = 'rupeesPerPoint' | 'pointValue' | 'minRedeemPoints' | 'expiryMonths';
type Draft = Record<Field | 'excludedCategories', string>;

const draftOf = (rules: PointsRules): Draft => ({
  rupeesPerPoint: String(rules.rupeesPerPoint),
  excludedCategories: rules.excludedCategories.join(', '),
  pointValue: String(rules.pointValue),
  minRedeemPoints: String(rules.minRedeemPoints),
  expiryMonths: String(rules.expiryMonths),
});

const categoriesOf = (text: string) =>
  text
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');

/**
 * Points Rules (/home/points-rules, owner): how many rupees of a sale earn a point, which
 * categories earn none, what a point is worth, the least that may be redeemed, and after how
 * many months points expire. A change applies from now on, never to past entries.
 */
export function PointsRulesPage() {
  const rules = usePointsRules();
  return (
    <>
      <PageHeader title={PAGE_TITLES.pointsRules} />
      {rules.isError && <Alert severity="error">{texts.loadFailed}</Alert>}
      {rules.isPending && <CircularProgress aria-label={texts.loading} />}
      {rules.data && (
        <RulesEditor key={rules.data.current.validFrom} current={rules.data.current} />
      )}
    </>
  );
}

function RulesEditor({ current }: { current: PointsRules }) {
  const save = useSavePointsRules();
  const [draft, setDraft] = useState<Draft>(() => draftOf(current));
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const form: RulesForm = {
      rupeesPerPoint: readTypedNumber(draft.rupeesPerPoint),
      excludedCategories: categoriesOf(draft.excludedCategories),
      pointValue: readTypedNumber(draft.pointValue),
      minRedeemPoints: readTypedNumber(draft.minRedeemPoints),
      expiryMonths: readTypedNumber(draft.expiryMonths),
    };
    const checked = pointsRulesForm.safeParse(form);
    if (!checked.success) {
      const found: Partial<Record<keyof Draft, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] as keyof Draft;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.submit(form, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
      },
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'refused') setRefusal(failure.message ?? texts.saveFailed);
        else if (failure.kind === 'exception') setRefusal(texts.saveFailed);
      },
    });
  };

  const field = (name: keyof Draft, label: string, help?: string, decimal = false) => (
    <TextField
      label={label}
      name={name}
      value={draft[name]}
      onChange={(event) => setDraft((d) => ({ ...d, [name]: event.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? help}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: decimal ? 'decimal' : 'numeric' },
      }}
      fullWidth
    />
  );

  const categories = categoriesOf(draft.excludedCategories);

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={2.5}>
          <Alert severity="info">{texts.appliesFromNow}</Alert>
          {field('rupeesPerPoint', texts.rupeesPerPoint, texts.rupeesPerPointHelp, true)}
          <TextField
            label={texts.excludedCategories}
            name="excludedCategories"
            value={draft.excludedCategories}
            onChange={(event) =>
              setDraft((d) => ({ ...d, excludedCategories: event.target.value }))
            }
            error={Boolean(errors.excludedCategories)}
            helperText={errors.excludedCategories ?? texts.excludedCategoriesHelp}
            slotProps={{ inputLabel: { shrink: true } }}
            fullWidth
          />
          {categories.length > 0 && (
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {categories.map((c) => (
                <Chip key={c} size="small" label={c.toLowerCase()} />
              ))}
            </Stack>
          )}
          {field('pointValue', texts.pointValue, undefined, true)}
          {field('minRedeemPoints', texts.minRedeemPoints)}
          {field('expiryMonths', texts.expiryMonths, texts.expiryMonthsHelp)}
          {refusal && (
            <Alert severity="error" role="alert">
              {refusal}
            </Alert>
          )}
          <Typography variant="body2" color="text.secondary">
            {current.isDefault
              ? texts.defaultRules
              : texts.currentSince(
                  new Date(current.validFrom).toLocaleDateString('en-GB', {
                    timeZone: 'Asia/Kolkata',
                  }),
                )}
          </Typography>
          <div>
            <SubmitButton pending={save.isPending} pendingLabel={texts.saving}>
              {texts.save}
            </SubmitButton>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
