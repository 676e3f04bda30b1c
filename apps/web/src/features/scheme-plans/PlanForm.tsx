import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { Controller } from 'react-hook-form';
import { SCHEME_PLAN_KINDS, SCHEME_PLAN_TEXTS, type SchemePlan } from '@kanak/contract';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { SwitchControl } from '../../components/SwitchControl';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useSaveSchemePlan } from './api';
import {
  blankPlan,
  placeRefusal,
  planDraft,
  planForm,
  type PlanDraft,
  type PlanValues,
} from './planValues';

const texts = SCHEME_PLAN_TEXTS;

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
  const form = useSchemaForm(planForm, plan ? planDraft(plan) : blankPlan, {
    // A message stays until the next SAVE, the server's as the form's own.
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const code = form.register('code');
  const termsFixed = plan !== null && plan.schemes > 0;

  const submit = (values: PlanValues) => {
    // Saving a new plan under a taken code would change that plan instead of adding one.
    if (plan === null && codesInUse.includes(values.code)) {
      return form.setError('code', { message: texts.codeTaken(values.code) });
    }
    save.submit(values, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
        onClose();
      },
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'exception') {
          // Told as the app's alert; the dialog keeps what can be corrected in it.
          reportFailure(error, texts.saveFailed);
          return save.reset();
        }
        if (failure.kind !== 'refused' || failure.status !== 400 || !failure.message) return;
        // A check of the fields: each sentence beside its field, the rest above the buttons.
        const { errors: placed, rest } = placeRefusal(failure.message);
        for (const [field, message] of placed) form.setError(field, { message });
        if (rest.length > 0) form.setError('root.refusal', { message: rest.join(' ') });
        save.reset();
      },
    });
  };

  // What a field shows: its label, help when it has no message, and whether it is fixed.
  const field = (
    name: Exclude<keyof PlanDraft, 'kind' | 'active'>,
    label: string,
    { help, fixed = termsFixed }: { help?: string; fixed?: boolean } = {},
  ) => (
    <FormField<PlanDraft>
      name={name}
      label={label}
      help={help}
      {...(name === 'code' && {
        // Codes are capital letters: typed in any case, kept in capitals.
        onChange: (event) => {
          event.target.value = event.target.value.toUpperCase();
          return code.onChange(event);
        },
      })}
      slotProps={{
        htmlInput: {
          readOnly: fixed,
          ...(name === 'code' ? { maxLength: 10 } : {}),
          ...(name === 'code' || name === 'name' ? {} : { inputMode: 'numeric' }),
        },
      }}
    />
  );

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <ChangeForm form={form} change={save} onSubmit={submit}>
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
            {field('code', texts.code, { help: texts.codeHelp, fixed: plan !== null })}
            {field('name', texts.name, { fixed: false })}
            <Box>
              <Controller
                control={form.control}
                name="kind"
                render={({ field: kind }) => (
                  <SelectField
                    label={texts.kind}
                    name={kind.name}
                    value={kind.value}
                    // A plan in use keeps its kind: the only choice offered is the one it has.
                    options={
                      termsFixed ? kindOptions.filter((o) => o.value === kind.value) : kindOptions
                    }
                    onChange={kind.onChange}
                  />
                )}
              />
              {errors.kind && (
                <Alert severity="error" sx={{ mt: 1 }}>
                  {errors.kind.message}
                </Alert>
              )}
            </Box>
            {field('installments', texts.installments, { help: texts.installmentsHelp })}
            {field('minAmount', texts.minAmount)}
            {field('bonusPercent', texts.bonusPercent)}
            {field('graceDays', texts.graceDays, { help: texts.graceDaysHelp })}
            {field('redeemWithinDays', texts.redeemWithinDays, {
              help: texts.redeemWithinDaysHelp,
            })}
            <Box sx={{ gridColumn: '1 / -1' }}>
              <Controller
                control={form.control}
                name="active"
                render={({ field: active }) => (
                  <SwitchControl checked={active.value} onChange={active.onChange}>
                    {texts.active}
                  </SwitchControl>
                )}
              />
            </Box>
          </Box>
          {/* Above the buttons: a refusal in the server's words, or the sentences of a check
              of the fields that name no field. */}
          <Box sx={{ '&:not(:empty)': { mt: 2 } }}>
            <ChangeError />
            {errors.root?.refusal && (
              <Alert severity="error" role="alert">
                {errors.root.refusal.message}
              </Alert>
            )}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={save.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
        </DialogActions>
      </ChangeForm>
    </Dialog>
  );
}
