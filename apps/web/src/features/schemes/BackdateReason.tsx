import TextField from '@mui/material/TextField';
import {
  BACKDATE_TEXTS,
  LIMITS,
  earliestDateWithoutReason,
  formatSchemeDate,
  needsBackdateReason,
} from '@kanak/contract';
import { useMe } from '../../lib/me';

/**
 * How far back the signed-in staff member dates a scheme's start, activation or installment:
 * a cashier or a manager the last few days (the date field stops there), the owner any day,
 * giving a reason for one further back. The server holds the same rule.
 */
export function useBackdating(today: string) {
  const { data: me } = useMe();
  const owner = me?.role === 'owner';
  const earliest = earliestDateWithoutReason(today);
  return {
    /** The earliest date to offer, never before `floor` (the scheme's start). */
    min: (floor?: string) =>
      owner || (floor !== undefined && floor > earliest) ? floor : earliest,
    /** The owner's date further back than staff may date one: it needs a reason. */
    needsReason: (date: string) => owner && date !== '' && needsBackdateReason(date, today),
    /** A reason long enough to send (the server checks it too). */
    reasonGiven: (reason: string) => reason.trim().length >= LIMITS.backdateReasonMinLength,
    earliest,
  };
}

/** The owner's reason for an earlier date, shown while the date chosen needs one. */
export function BackdateReasonField({
  value,
  onChange,
  earliest,
}: {
  value: string;
  onChange: (value: string) => void;
  earliest: string;
}) {
  return (
    <TextField
      label={BACKDATE_TEXTS.reason}
      name="backdateReason"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      helperText={BACKDATE_TEXTS.help(formatSchemeDate(earliest))}
      required
      fullWidth
      autoComplete="off"
      slotProps={{ htmlInput: { maxLength: LIMITS.narrationMaxLength } }}
    />
  );
}
