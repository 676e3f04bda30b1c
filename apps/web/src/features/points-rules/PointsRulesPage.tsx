import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  PAGE_TITLES,
  POINTS_RULES_TEXTS,
  type PointsRules,
  pointsRulesForm,
  readTypedNumber,
} from '@kanak/contract';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { PageHeader } from '../../components/PageHeader';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { usePointsRules, useSavePointsRules, type RulesForm } from './api';

const texts = POINTS_RULES_TEXTS;

/** The rules as typed: every field is text until it is read ("1,000" too). */
const rulesDraft = z.object({
  rupeesPerPoint: z.string(),
  excludedCategories: z.string(),
  pointValue: z.string(),
  minRedeemPoints: z.string(),
  expiryMonths: z.string(),
});
type Draft = z.infer<typeof rulesDraft>;

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

/** The draft read as the rules are sent: amounts in rupees, the categories as a list. */
const readRules = (draft: Draft): RulesForm => ({
  rupeesPerPoint: readTypedNumber(draft.rupeesPerPoint),
  excludedCategories: categoriesOf(draft.excludedCategories),
  pointValue: readTypedNumber(draft.pointValue),
  minRedeemPoints: readTypedNumber(draft.minRedeemPoints),
  expiryMonths: readTypedNumber(draft.expiryMonths),
});

/**
 * The draft checked by the contract's own rules, read as they are sent: each field's first
 * problem, in the words the server would answer with, under it. (The contract's schema makes
 * paise of the amounts; the rules are sent in rupees, as typed.)
 */
const checkedDraft = rulesDraft
  .superRefine((draft, context) => {
    const checked = pointsRulesForm.safeParse(readRules(draft));
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      const [field] = issue.path;
      if (typeof field === 'string') {
        context.addIssue({ code: 'custom', message: issue.message, path: [field] });
      }
    }
  })
  .transform(readRules);

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

/** A field of the rules: a number typed as the shop writes it. */
function RuleField({
  name,
  label,
  help,
  decimal = false,
}: {
  name: keyof Draft;
  label: string;
  help?: string;
  decimal?: boolean;
}) {
  return (
    <FormField<Draft>
      name={name}
      label={label}
      help={help}
      slotProps={{ htmlInput: { inputMode: decimal ? 'decimal' : 'numeric' } }}
    />
  );
}

/** The categories that earn no points, as they are kept: lower case. */
function CategoryChips() {
  const categories = categoriesOf(
    useWatch<Draft, 'excludedCategories'>({ name: 'excludedCategories' }),
  );
  if (categories.length === 0) return null;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {categories.map((c) => (
        <Chip key={c} size="small" label={c.toLowerCase()} />
      ))}
    </Stack>
  );
}

function RulesEditor({ current }: { current: PointsRules }) {
  const save = useSavePointsRules();
  const form = useSchemaForm(checkedDraft, draftOf(current), {
    // A message stays until the next SAVE.
    reValidateMode: 'onSubmit',
  });

  const submit = (rules: RulesForm) =>
    save.submit(rules, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
      },
    });

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
      <ChangeForm
        form={form}
        change={save}
        onSubmit={submit}
        // A new press: the last refusal goes.
        onInvalid={() => save.isRunning() || save.reset()}
      >
        <Stack spacing={2.5}>
          <Alert severity="info">{texts.appliesFromNow}</Alert>
          <RuleField
            name="rupeesPerPoint"
            label={texts.rupeesPerPoint}
            help={texts.rupeesPerPointHelp}
            decimal
          />
          <FormField<Draft>
            name="excludedCategories"
            label={texts.excludedCategories}
            help={texts.excludedCategoriesHelp}
          />
          <CategoryChips />
          <RuleField name="pointValue" label={texts.pointValue} decimal />
          <RuleField name="minRedeemPoints" label={texts.minRedeemPoints} />
          <RuleField name="expiryMonths" label={texts.expiryMonths} help={texts.expiryMonthsHelp} />
          <ChangeError />
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
            <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
          </div>
        </Stack>
      </ChangeForm>
    </Paper>
  );
}
