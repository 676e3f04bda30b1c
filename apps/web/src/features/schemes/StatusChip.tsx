import Chip from '@mui/material/Chip';
import { schemeStatusLabel } from '@kanak/contract';

const colors = { Inactive: 'default', Active: 'success', Completed: 'secondary' } as const;

/** Inactive, Active or Completed ('n', empty or missing read Inactive). */
export function StatusChip({ status }: { status: string | null | undefined }) {
  const label = schemeStatusLabel(status);
  return (
    <Chip
      label={label}
      size="small"
      color={colors[label]}
      variant={label === 'Inactive' ? 'outlined' : 'filled'}
    />
  );
}
