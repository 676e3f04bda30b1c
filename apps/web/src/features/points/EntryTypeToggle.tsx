import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import { Controller, useFormContext } from 'react-hook-form';
import { CASHCR, LEDGER_TEXTS, type CashCr } from '@kanak/contract';
import type { PointsFormValues } from './api';

const texts = LEDGER_TEXTS.loyaltyPoints;

/** Points Allocation or Points Deduction: no choice until the user makes one. */
export function EntryTypeToggle() {
  const { control } = useFormContext<PointsFormValues>();
  return (
    <Controller
      control={control}
      name="CASHCR"
      render={({ field }) => (
        <ToggleButtonGroup
          exclusive
          value={field.value || null}
          // Like radio buttons: choosing again keeps the choice.
          onChange={(_event, next: CashCr | null) => next && field.onChange(next)}
          aria-label={texts.entryType}
          fullWidth
          sx={{ '& .MuiToggleButton-root': { py: 1.5, lineHeight: 1.2 } }}
        >
          <ToggleButton value={CASHCR.credit} color="success">
            <AddCircleOutlineIcon fontSize="small" sx={{ mr: 0.75 }} />
            {texts.allocation}
          </ToggleButton>
          <ToggleButton value={CASHCR.debit} color="error">
            <RemoveCircleOutlineIcon fontSize="small" sx={{ mr: 0.75 }} />
            {texts.deduction}
          </ToggleButton>
        </ToggleButtonGroup>
      )}
    />
  );
}
