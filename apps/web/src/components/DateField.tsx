import TextField from '@mui/material/TextField';

interface DateFieldProps {
  label: string;
  /** `YYYY-MM-DD`, or '' while the input holds no complete date. */
  value: string;
  onChange: (value: string) => void;
  name?: string;
  /** Earliest and latest choosable dates, `YYYY-MM-DD`. */
  min?: string;
  max?: string;
  disabled?: boolean;
  required?: boolean;
  /** Small text under the field; with `error` it marks the field invalid. */
  helperText?: string;
  error?: boolean;
}

/** A date input (the browser's own picker and keyboard entry); its value is `YYYY-MM-DD`. */
export function DateField({
  label,
  value,
  onChange,
  name,
  min,
  max,
  disabled,
  required,
  helperText,
  error,
}: DateFieldProps) {
  return (
    <TextField
      type="date"
      label={label}
      name={name}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled}
      required={required}
      error={error}
      helperText={helperText}
      fullWidth
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { min, max } }}
    />
  );
}
