import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import {
  SCHEME_PLAN_FIELDS,
  SCHEME_PLAN_KINDS,
  SCHEME_PLAN_TEXTS,
  readTypedNumber,
  schemePlanSaveRequest,
  type SchemePlan,
  type SchemePlanKind,
} from '@kanak/contract';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { SwitchControl } from '../../components/SwitchControl';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useSaveSchemePlan } from './api';

const texts = SCHEME_PLAN_TEXTS;

type Field = keyof typeof SCHEME_PLAN_FIELDS;
type Errors = Partial<Record<Field, string>>;
type NumberField = 'installments' | 'minAmount' | 'bonusPercent' | 'graceDays' | 'redeemWithinDays';
interface Draft extends Record<NumberField, string> {
  code: string;
  name: string;
  kind: SchemePlanKind;
  active: boolean;
}

const NUMBER_FIELDS: readonly NumberField[] = [
  'installments',
  'minAmount',
  'bonusPercent',
  'graceDays',
  'redeemWithinDays',
];

/** A new plan starts as the standard scheme's usual terms. */
const blank: Draft = {
  code: '',
  name: '',
  kind: 'value',
  installments: '11',
  minAmount: '',
  bonusPercent: '100',
  graceDays: '7',
  redeemWithinDays: '60',
  active: true,
};

const draftOf = (plan: SchemePlan): Draft => ({
  code: plan.code,
  name: plan.name,
  kind: plan.kind,
  installments: String(plan.installments),
  minAmount: String(plan.minAmount),
  bonusPercent: String(plan.bonusPercent),
  graceDays: String(plan.graceDays),
  redeemWithinDays: String(plan.redeemWithinDays),
  active: plan.active,
});

// Active is a switch with no line for a message: a refusal of it is shown above the buttons.
const FIELDS = (Object.entries(SCHEME_PLAN_FIELDS) as [Field, string][]).filter(
  ([key]) => key !== 'active',
);

/**
 * Which field each sentence of a server refusal is about: the rules start every sentence with
 * the field's name (or, for a check of the framework's own, its key and a colon). Sentences
 * about no field are returned as they are, to show above the buttons.
 */
function placeRefusal(message: string): { errors: Errors; rest: string[] } {
  const errors: Errors = {};
  const rest: string[] = [];
  for (const sentence of message.split(/(?<=\.)\s+/)) {
    const field = FIELDS.find(
      ([key, name]) => sentence.startsWith(`${name} `) || sentence.startsWith(`${key}:`),
    )?.[0];
    if (field) errors[field] ??= sentence;
    else rest.push(sentence);
  }
  return { errors, rest };
}

const kindOptions = SCHEME_PLAN_KINDS.map((kind) => ({ value: kind, label: texts.kinds[kind] }));

/**
 * Add a plan, or edit one: its code stays. A plan that schemes use shows its terms without
 * letting them change (the server refuses it too): its name and Active still may.
 */
export function PlanForm({
  plan,
  codesInUse,
  onClose,
}: {
  plan: SchemePlan | null;
  codesInUse: readonly string[];
  onClose: () => void;
}) {
  const save = useSaveSchemePlan();
  const [draft, setDraft] = useState<Draft>(() => (plan ? draftOf(plan) : blank));
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const termsFixed = plan !== null && plan.schemes > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isRunning()) return;
    setRefusal(null);
    const checked = schemePlanSaveRequest.safeParse({
      code: draft.code,
      name: draft.name,
      kind: draft.kind,
      active: draft.active,
      ...Object.fromEntries(NUMBER_FIELDS.map((field) => [field, readTypedNumber(draft[field])])),
    });
    const found: Errors = {};
    for (const issue of checked.error?.issues ?? [])
      found[issue.path[0] as Field] ??= issue.message;
    // Saving a new plan under a taken code would change that plan instead of adding one.
    if (plan === null && checked.success && codesInUse.includes(checked.data.code)) {
      found.code = texts.codeTaken(checked.data.code);
    }
    setErrors(found);
    if (!checked.success || Object.keys(found).length > 0) return;
    save.submit(checked.data, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
        onClose();
      },
      onError: (error) =>
        reportFailure(error, texts.saveFailed, (message, status) => {
          if (status === 400 && message) {
            const { errors: placed, rest } = placeRefusal(message);
            setErrors(placed);
            setRefusal(rest.length > 0 ? rest.join(' ') : null);
          } else {
            setRefusal(message ?? texts.saveFailed);
          }
        }),
    });
  };

  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const field = (
    name: 'code' | 'name' | NumberField,
    label: string,
    { help, numeric = true, fixed = false }: { help?: string; numeric?: boolean; fixed?: boolean },
  ) => (
    <TextField
      label={label}
      name={name}
      value={draft[name]}
      onChange={(event) =>
        set(name, name === 'code' ? event.target.value.toUpperCase() : event.target.value)
      }
      error={Boolean(errors[name])}
      helperText={errors[name] ?? help}
      fullWidth
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: {
          readOnly: fixed,
          ...(numeric ? { inputMode: 'numeric' } : {}),
          ...(name === 'code' ? { maxLength: 10 } : {}),
        },
      }}
    />
  );

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{plan ? texts.editTitle(plan.code) : texts.addTitle}</DialogTitle>
        <DialogContent>
          {termsFixed && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {texts.inUse(plan.schemes)}
            </Alert>
          )}
          <Box
            sx={{
              display: 'grid',
              gap: 2.5,
              pt: 1,
              gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
            }}
          >
            {/* An existing plan's code names it: shown, never changed. */}
            {field('code', texts.code, { help: texts.codeHelp, numeric: false, fixed: !!plan })}
            {field('name', texts.name, { numeric: false })}
            <Box>
              <SelectField
                label={texts.kind}
                name="kind"
                value={draft.kind}
                // A plan in use keeps its kind: the only choice offered is the one it has.
                options={
                  termsFixed ? kindOptions.filter((o) => o.value === draft.kind) : kindOptions
                }
                onChange={(kind) => set('kind', kind)}
              />
              {errors.kind && (
                <Alert severity="error" sx={{ mt: 1 }}>
                  {errors.kind}
                </Alert>
              )}
            </Box>
            {field('installments', texts.installments, {
              help: texts.installmentsHelp,
              fixed: termsFixed,
            })}
            {field('minAmount', texts.minAmount, { fixed: termsFixed })}
            {field('bonusPercent', texts.bonusPercent, { fixed: termsFixed })}
            {field('graceDays', texts.graceDays, { help: texts.graceDaysHelp, fixed: termsFixed })}
            {field('redeemWithinDays', texts.redeemWithinDays, {
              help: texts.redeemWithinDaysHelp,
              fixed: termsFixed,
            })}
            <Box sx={{ gridColumn: '1 / -1' }}>
              <SwitchControl checked={draft.active} onChange={(on) => set('active', on)}>
                {texts.active}
              </SwitchControl>
            </Box>
          </Box>
          {refusal && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {refusal}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={save.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pending={save.isPending} pendingLabel={texts.saving}>
            {texts.save}
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
