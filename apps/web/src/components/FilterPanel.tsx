import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { useBranchList } from '../lib/branches';
import { DateField } from './DateField';
import { SelectField } from './SelectField';
import { SubmitButton, type SubmitButtonProps } from './SubmitButton';

interface FilterPanelProps {
  /** The panel's heading, which also names its section. */
  title: string;
  /** The form's grid tracks, per breakpoint (one column on a phone). */
  columns: Partial<Record<'xs' | 'sm' | 'md' | 'lg', string>>;
  /** Generate (the form's submit, Enter included). */
  onSubmit: () => void;
  /** More of the form's layout (e.g. fields spanning two columns). */
  sx?: SxProps<Theme>;
  /** The filter's fields and its GenerateButton, in grid order. */
  children: ReactNode;
}

/**
 * The filter form above a statement or a summary (points statement, scheme statement, scheme
 * summary): a titled panel whose fields sit in a grid, one column on a phone.
 */
export function FilterPanel({ title, columns, onSubmit, sx, children }: FilterPanelProps) {
  const titleId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}
    >
      <Typography id={titleId} component="h2" variant="h5" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Box
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
        sx={[
          { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', ...columns } },
          { alignItems: 'start' },
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
      >
        {children}
      </Box>
    </Paper>
  );
}

/** A filter panel's Generate button: as tall as the fields beside it, its label on one line. */
export function GenerateButton({ sx, ...props }: SubmitButtonProps) {
  return (
    <SubmitButton
      size="large"
      sx={[{ minHeight: 56, whiteSpace: 'nowrap' }, ...(Array.isArray(sx) ? sx : [sx])]}
      {...props}
    />
  );
}

interface DateRange {
  from?: string;
  to?: string;
}

interface DateRangeFieldsProps {
  /** The fields' labels (the screen's texts). */
  labels: { from: string; to: string };
  value: DateRange;
  onChange: (patch: DateRange) => void;
  /** A date's problem, under its field. */
  problems?: DateRange;
}

/** From and To of a filter: neither can be chosen past the other. */
export function DateRangeFields({ labels, value, onChange, problems = {} }: DateRangeFieldsProps) {
  return (
    <>
      <DateField
        label={labels.from}
        name="from"
        value={value.from ?? ''}
        max={value.to || undefined}
        onChange={(from) => onChange({ from })}
        error={Boolean(problems.from)}
        helperText={problems.from}
      />
      <DateField
        label={labels.to}
        name="to"
        value={value.to ?? ''}
        min={value.from || undefined}
        onChange={(to) => onChange({ to })}
        error={Boolean(problems.to)}
        helperText={problems.to}
      />
    </>
  );
}

interface BranchFilterProps {
  label: string;
  /** The choice of no one branch (the whole chain). */
  anyLabel: string;
  /** The branch's code; '' for every branch. */
  value: string;
  onChange: (branch: string) => void;
}

/** The branch a filter is for (the owner's choice): every branch, or one by code and name. */
export function BranchFilter({ label, anyLabel, value, onChange }: BranchFilterProps) {
  const branches = useBranchList();
  return (
    <SelectField
      label={label}
      name="branch"
      value={value}
      options={[
        { value: '', label: anyLabel },
        ...(branches.data ?? []).map((branch) => ({
          value: branch.code,
          label: `${branch.code} · ${branch.name}`,
        })),
      ]}
      onChange={onChange}
    />
  );
}
