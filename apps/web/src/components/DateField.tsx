import { useState } from 'react';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';

/** How every date field shows and takes a date, whatever the browser's language. */
export const DATE_FIELD_FORMAT = 'DD/MM/YYYY';
const PAYLOAD_FORMAT = 'YYYY-MM-DD';
/** The narrowest a date field gets: the whole date and the calendar button in view. */
export const DATE_FIELD_MIN_WIDTH = '11rem';

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

const toDay = (value: string) => (value ? dayjs(value) : null);

/**
 * A DD/MM/YYYY date field with a calendar; its value is `YYYY-MM-DD`. A native date input
 * would show the browser's own order (MM/DD/YYYY in an en-US browser), which staff misread.
 */
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
  // What the field holds, which may be a date still being typed ('' to the form). A new value
  // from the form (a reset, a default arriving) replaces it.
  const [shown, setShown] = useState({ value, day: toDay(value) });
  if (shown.value !== value) setShown({ value, day: toDay(value) });

  const change = (day: Dayjs | null) => {
    const next = day?.isValid() ? day.format(PAYLOAD_FORMAT) : '';
    setShown({ value: next, day });
    if (next !== value) onChange(next);
  };

  return (
    <DatePicker
      label={label}
      value={shown.day}
      onChange={change}
      format={DATE_FIELD_FORMAT}
      minDate={min ? dayjs(min) : undefined}
      maxDate={max ? dayjs(max) : undefined}
      disabled={disabled}
      slotProps={{
        // Left to the picker unless the form says: it marks a date outside min–max itself.
        textField: {
          name,
          required,
          helperText,
          fullWidth: true,
          ...(error && { error }),
          // DD/MM/YYYY and the calendar button, never cut ("25/11/20"), in any grid or row.
          sx: { minWidth: DATE_FIELD_MIN_WIDTH },
        },
      }}
    />
  );
}
