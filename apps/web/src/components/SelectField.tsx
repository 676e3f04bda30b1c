import TextField from '@mui/material/TextField';

interface SelectFieldProps<Value extends string> {
  label: string;
  name: string;
  value: Value;
  /** Each choice's value and the text staff see. */
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value) => void;
}

/** A choice among a few fixed options (the browser's own list, which phones show well). */
export function SelectField<Value extends string>({
  label,
  name,
  value,
  options,
  onChange,
}: SelectFieldProps<Value>) {
  return (
    <TextField
      select
      label={label}
      name={name}
      value={value}
      onChange={(event) => {
        const chosen = options.find((option) => option.value === event.target.value);
        if (chosen) onChange(chosen.value);
      }}
      fullWidth
      // A long option (a branch's name) must not widen the form past a phone's screen: the
      // field takes its column's width, and the chosen text is cut with an ellipsis.
      sx={{ minWidth: 0, '& select': { textOverflow: 'ellipsis' } }}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </TextField>
  );
}
