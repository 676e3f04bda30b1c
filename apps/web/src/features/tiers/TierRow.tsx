import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { TIER_LIMITS, TIERS_TEXTS, formatRupees, readTypedNumber } from '@kanak/contract';
import type { TierField as Field, TiersDraft } from './tiersDraft';

const texts = TIERS_TEXTS;

/** One tier of the ladder: code, name, minimum spend and earning %, and its remove button. */
export function TierRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const n = index + 1;
  return (
    <Box
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
      <TierField index={index} name="code" label={texts.code} help={texts.codeHelp} />
      <TierField index={index} name="name" label={texts.name} />
      <IconButton
        aria-label={texts.remove(n)}
        onClick={onRemove}
        sx={{ mt: 1, gridColumn: { xs: 3, md: 5 }, gridRow: 1 }}
      >
        <DeleteIcon />
      </IconButton>
      <TierField index={index} name="minSpend" label={texts.minSpend} />
      <TierField
        index={index}
        name="earnPercent"
        label={texts.earnPercent}
        help={texts.earnPercentHelp}
      />
    </Box>
  );
}

interface TierFieldProps {
  index: number;
  name: Field;
  label: string;
  help?: string;
}

/** A field of a tier: its problem under it until it is edited. */
function TierField({ index, name, label, help }: TierFieldProps) {
  const path = `tiers.${index}.${name}` as const;
  const { register, clearErrors, getFieldState } = useFormContext<TiersDraft>();
  const { error } = getFieldState(path, useFormState<TiersDraft>({ name: path }));
  const typed = useWatch<TiersDraft, typeof path>({ name: path });
  const field = register(path);
  const spend = name === 'minSpend' ? readTypedNumber(typed) : Number.NaN;
  const numeric = name === 'minSpend' || name === 'earnPercent';
  return (
    <TextField
      label={label}
      {...field}
      onChange={(event) => {
        clearErrors(path);
        return field.onChange(event);
      }}
      error={Boolean(error)}
      // The spend as the shop reads it, ₹1,00,000, while typing it.
      helperText={
        error?.message ?? (Number.isFinite(spend) && spend >= 0 ? formatRupees(spend) : help)
      }
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: numeric
          ? { inputMode: name === 'minSpend' ? 'decimal' : 'numeric' }
          : { maxLength: name === 'code' ? TIER_LIMITS.codeMaxLength : TIER_LIMITS.nameMaxLength },
      }}
      fullWidth
    />
  );
}
