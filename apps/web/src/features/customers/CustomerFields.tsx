import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { Controller, useFormContext } from 'react-hook-form';
import { LEDGER_TEXTS, LIMITS } from '@kanak/contract';
import type { CustomerValues, TextName } from './customerValues';

const texts = LEDGER_TEXTS.customerProfile;
const DISPLAY_FORMAT = 'DD/MM/YYYY';

interface CustomerTextProps {
  name: TextName;
  label: string;
  maxLength: number;
  /** More of the input's own attributes (inputMode...). */
  extra?: object;
}

/**
 * A text field of the customer form, its problem under it until it is edited. Controlled, so
 * that the labels move up when a customer's values are filled in.
 */
export function CustomerText({ name, label, maxLength, extra = {} }: CustomerTextProps) {
  const { control, clearErrors } = useFormContext<CustomerValues>();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, onChange, ...field }, fieldState }) => (
        <TextField
          label={label}
          {...field}
          onChange={(event) => {
            onChange(event);
            if (fieldState.error) clearErrors(name);
          }}
          inputRef={ref}
          autoComplete="off"
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          slotProps={{ htmlInput: { maxLength, ...extra } }}
        />
      )}
    />
  );
}

interface DateInputProps {
  name: 'dob' | 'doa';
  label: string;
  disableFuture?: boolean;
}

/** A DD/MM/YYYY date picker with a clear button in the field and in the calendar. */
export function DateInput({ name, label, disableFuture }: DateInputProps) {
  const { control, clearErrors } = useFormContext<CustomerValues>();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <DatePicker
          label={label}
          value={field.value}
          onChange={(value) => {
            field.onChange(value);
            if (fieldState.error) clearErrors(name);
          }}
          inputRef={field.ref}
          format={DISPLAY_FORMAT}
          disableFuture={disableFuture}
          slotProps={{
            field: { clearable: true },
            actionBar: { actions: ['clear', 'accept'] },
            textField: {
              fullWidth: true,
              name,
              onBlur: field.onBlur,
              error: Boolean(fieldState.error),
              helperText: fieldState.error?.message,
            },
          }}
        />
      )}
    />
  );
}

/** The customer's details after the mobile number, in the form's grid: name to PAN. */
export function CustomerDetails() {
  return (
    <>
      <Box sx={{ gridColumn: '1 / -1' }}>
        <CustomerText name="custname" label={texts.name} maxLength={LIMITS.customerNameMaxLength} />
      </Box>
      <CustomerText
        name="email"
        label={texts.email}
        maxLength={LIMITS.emailMaxLength}
        extra={{ inputMode: 'email' }}
      />
      <CustomerText name="address" label={texts.address} maxLength={LIMITS.addressMaxLength} />
      <CustomerText name="city" label={texts.city} maxLength={LIMITS.cityMaxLength} />
      <CustomerText
        name="pincode"
        label={texts.pincode}
        maxLength={LIMITS.pincodeLength}
        extra={{ inputMode: 'numeric' }}
      />
      <CustomerText name="state" label={texts.state} maxLength={LIMITS.stateMaxLength} />
      <DateInput name="dob" label={texts.dob} disableFuture />
      <DateInput name="doa" label={texts.doa} />
      <CustomerText
        name="aadhaar"
        label={texts.aadhaar}
        maxLength={LIMITS.aadhaarMaxLength}
        extra={{ inputMode: 'numeric' }}
      />
      <CustomerText
        name="pan"
        label={texts.pan}
        maxLength={LIMITS.panLength}
        extra={{ autoCapitalize: 'characters', style: { textTransform: 'uppercase' } }}
      />
    </>
  );
}
