import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/AddOutlined';
import SortIcon from '@mui/icons-material/SortOutlined';
import { Controller, useFieldArray } from 'react-hook-form';
import {
  PAGE_TITLES,
  TIER_DOWNGRADES,
  TIER_LIMITS,
  TIERS_TEXTS,
  type TiersFormInput,
  type TiersSettings,
} from '@kanak/contract';
import { ChangeError, ChangeForm, useSchemaForm } from '../../components/ChangeForm';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { useSaveTiers, useTiers } from './api';
import { TierRow } from './TierRow';
import {
  blankTier,
  bySpend,
  checkedTiers,
  draftOf,
  readTiers,
  type TiersDraft,
} from './tiersDraft';

const texts = TIERS_TEXTS;

const downgradeOptions = TIER_DOWNGRADES.map((value) => ({
  value,
  label: texts.downgrades[value],
}));

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
  const form = useSchemaForm(checkedTiers, draftOf(current), {
    // A message stays until its field is edited or the next SAVE.
    reValidateMode: 'onSubmit',
  });
  const rows = useFieldArray({ control: form.control, name: 'tiers' });
  const listErrors = form.formState.errors.tiers;
  const listError = listErrors?.root?.message ?? listErrors?.message;
  const [confirming, setConfirming] = useState<TiersFormInput | null>(null);

  const send = (request: TiersFormInput) =>
    save.submit(request, {
      onSuccess: (answer) => {
        setConfirming(null);
        if (answer.message) showAlert('success', answer.message);
      },
    });

  const submit = (draft: TiersDraft) => {
    if (save.isRunning()) return;
    save.reset();
    // The ladder as it reads, lowest first: on the screen, and as it is sent.
    const ordered = [...draft.tiers].sort(bySpend);
    rows.replace(ordered);
    const request = readTiers(ordered, draft.downgrade);
    // Tiers that never fell start falling: the anniversaries missed meanwhile all come due.
    if (current.downgrade === 'never' && draft.downgrade === 'anniversary') setConfirming(request);
    else send(request);
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 960 }}>
      <ChangeForm
        form={form}
        // A refusal of the confirmed save shows in the question, not behind it.
        change={{ isPending: save.isPending, error: confirming ? null : save.error }}
        onSubmit={submit}
        // A new press: the last refusal goes.
        onInvalid={() => save.isRunning() || save.reset()}
      >
        <Stack spacing={2.5}>
          <Typography variant="body2" color="text.secondary">
            {texts.intro}
          </Typography>
          {rows.fields.length === 0 && <Alert severity="info">{texts.none}</Alert>}
          {listError && (
            <Alert severity="error" role="alert">
              {listError}
            </Alert>
          )}
          {rows.fields.map((row, index) => (
            <TierRow key={row.id} index={index} onRemove={() => rows.remove(index)} />
          ))}
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<AddIcon />}
              onClick={() => rows.append(blankTier, { shouldFocus: false })}
              disabled={rows.fields.length >= TIER_LIMITS.tiersMax}
            >
              {texts.add}
            </Button>
            <Button
              variant="outlined"
              startIcon={<SortIcon />}
              onClick={() => rows.replace([...form.getValues('tiers')].sort(bySpend))}
              disabled={rows.fields.length < 2}
            >
              {texts.order}
            </Button>
          </Stack>
          <Controller
            control={form.control}
            name="downgrade"
            render={({ field }) => (
              <SelectField
                label={texts.downgrade}
                name={field.name}
                value={field.value}
                options={downgradeOptions}
                onChange={field.onChange}
              />
            )}
          />
          <ChangeError />
          <div>
            <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
          </div>
        </Stack>
      </ChangeForm>
      {confirming && (
        <ConfirmDialog
          title={texts.confirmTitle}
          question={texts.confirmQuestion}
          cancelLabel={texts.cancel}
          confirmLabel={texts.confirm}
          pendingLabel={texts.saving}
          pending={save.isPending}
          error={save.error}
          onConfirm={() => send(confirming)}
          onCancel={() => {
            setConfirming(null);
            // A refusal of the question's save goes with it.
            save.reset();
          }}
        />
      )}
    </Paper>
  );
}
