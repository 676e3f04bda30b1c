import { useId, type ChangeEvent } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';

interface PlainTextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
  maxLength?: number;
  /** Small error text under the field; also marks the field invalid. */
  error?: string | null;
}

/**
 * An outlined text field without MUI's TextField, which also pulls in Select, Menu and
 * Popover: the login page stays small.
 */
export function PlainTextField({
  label,
  name,
  value,
  onChange,
  type = 'text',
  autoComplete,
  autoFocus,
  maxLength,
  error,
}: PlainTextFieldProps) {
  const id = useId();
  const helperId = `${id}-helper`;
  return (
    <FormControl variant="outlined" fullWidth error={Boolean(error)}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        label={label}
        value={value}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        inputProps={{ maxLength, 'aria-describedby': error ? helperId : undefined }}
      />
      {error && (
        <FormHelperText id={helperId} role="alert">
          {error}
        </FormHelperText>
      )}
    </FormControl>
  );
}
