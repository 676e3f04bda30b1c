import { useState } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import {
  Controller,
  useForm,
  useWatch,
  type Control,
  type UseFormClearErrors,
} from 'react-hook-form';
import {
  LEDGER_TEXTS,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  SENTINEL_DATE,
  customerForm,
  isIndianMobile,
  mobileNumber,
  type CustomerFormInput,
  type CustomerProfile,
  type CustomerRecord,
} from '@kanak/contract';
import { SubmitButton } from '../../components/SubmitButton';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { CUSTOMER_PARAM, usePreselectedCustomer } from '../../components/customerFromAddress';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useCustomerLookup, useExportCustomers, useSaveCustomer } from './api';
import illustration from './customer-card.svg';
import { useMayCall } from '../../lib/me';

const texts = LEDGER_TEXTS.customerProfile;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;
const DISPLAY_FORMAT = 'DD/MM/YYYY';
const PAYLOAD_FORMAT = 'YYYY-MM-DD';

interface CustomerValues {
  custid: number | null;
  mobileno: string;
  custname: string;
  email: string;
  address: string;
  city: string;
  pincode: string;
  state: string;
  dob: Dayjs | null;
  doa: Dayjs | null;
  aadhaar: string;
  pan: string;
}

type TextName = 'custname' | 'email' | 'address' | 'city' | 'pincode' | 'state' | 'aadhaar' | 'pan';

const blank = (mobileno = ''): CustomerValues => ({
  custid: null,
  mobileno,
  custname: '',
  email: '',
  address: '',
  city: '',
  pincode: '',
  state: '',
  dob: null,
  doa: null,
  aadhaar: '',
  pan: '',
});

/** A stored date; '' and the legacy 1900-01-01 mean "no date". */
const toDay = (isoDate: string) => (isoDate && isoDate !== SENTINEL_DATE ? dayjs(isoDate) : null);

const fromRecord = (record: CustomerRecord): CustomerValues => ({
  custid: record.custid,
  mobileno: record.mobileno,
  custname: record.custname,
  email: record.email,
  address: record.address,
  city: record.city,
  pincode: record.pincode,
  state: record.state,
  dob: toDay(record.dob),
  doa: toDay(record.doa),
  aadhaar: record.aadhaar,
  pan: record.pan,
});

const toPayload = (date: Dayjs | null) => (date ? date.format(PAYLOAD_FORMAT) : '');

type FieldName = Exclude<keyof CustomerValues, 'custid'>;
interface Problem {
  field: FieldName;
  message: string;
}

/** The warnings in their fixed order: mobile present, then 10 digits, then a name. */
function firstProblem(values: CustomerValues): Problem | null {
  const mobile = mobileNumber.safeParse(values.mobileno);
  if (!mobile.success)
    return { field: 'mobileno', message: mobile.error.issues[0]?.message ?? MESSAGES.mobileLength };
  if (values.custname.trim() === '') return { field: 'custname', message: MESSAGES.enterName };
  if (values.dob && !values.dob.isValid())
    return { field: 'dob', message: texts.incompleteDate(texts.dob) };
  if (values.doa && !values.doa.isValid())
    return { field: 'doa', message: texts.incompleteDate(texts.doa) };
  return null;
}

/** The rest of the server's own checks (email, pincode, Aadhaar, PAN...), one per field. */
function fieldProblems(form: CustomerFormInput): Problem[] {
  const result = customerForm.safeParse(form);
  if (result.success) return [];
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || field === 'custid' || seen.has(field)) continue;
    seen.add(field);
    problems.push({ field: field as FieldName, message: issue.message });
  }
  return problems;
}

/** Which field a server refusal is about: its messages name the field first. */
const FIELD_LABELS: [FieldName, string][] = [
  ['custname', texts.name],
  ['email', texts.email],
  ['address', texts.address],
  ['city', texts.city],
  ['pincode', texts.pincode],
  ['state', texts.state],
  ['dob', texts.dob],
  ['doa', texts.doa],
  ['aadhaar', texts.aadhaar],
  ['pan', texts.pan],
];
function fieldOfRefusal(message: string): FieldName | null {
  if (message === MESSAGES.mobileTaken || message.startsWith('Mobile')) return 'mobileno';
  return FIELD_LABELS.find(([, label]) => message.startsWith(label))?.[0] ?? null;
}

const toForm = (values: CustomerValues): CustomerFormInput => ({
  custid: values.custid,
  mobileno: values.mobileno.trim(),
  custname: values.custname.trim(),
  email: values.email.trim(),
  address: values.address.trim(),
  city: values.city.trim(),
  pincode: values.pincode.trim(),
  state: values.state.trim(),
  dob: toPayload(values.dob),
  doa: toPayload(values.doa),
  aadhaar: values.aadhaar.trim(),
  pan: values.pan.trim().toUpperCase(),
});

/**
 * Create / Update customer profile: find a customer by mobile number (or type a new one), edit
 * the fields, SAVE; CANCEL empties everything; Export All downloads customer_list.csv.
 */
export function CustomerProfileForm({
  onCustomer,
}: {
  /** The customer on the form (as the server last answered), or null for none. */
  onCustomer?: (customer: CustomerProfile | null) => void;
}) {
  const [selected, setSelected] = useState<CustomerOption | null>(null);
  // A new key remounts the search box: empty text, focused again.
  const [searchKey, setSearchKey] = useState(0);
  // Opened for a mobile number (the counter's "Add customer" for a number nobody has): the
  // number is typed in for a new customer, or the customer chosen once found on file.
  const [params] = useSearchParams();
  const [givenMobile, setGivenMobile] = useState(() => {
    const mobile = params.get(CUSTOMER_PARAM)?.trim() ?? '';
    return isIndianMobile(mobile) ? mobile : '';
  });
  const { control, handleSubmit, reset, setValue, setError, clearErrors, formState } =
    useForm<CustomerValues>({ defaultValues: blank(givenMobile) });
  const mobileError = formState.errors.mobileno?.message;
  const custid = useWatch({ control, name: 'custid' });
  const lookup = useCustomerLookup();
  const save = useSaveCustomer();
  const exporter = useExportCustomers();
  const busy = lookup.isPending || save.isPending;

  const choose = (customer: CustomerOption | null) => {
    setSelected(customer);
    if (!customer) return;
    // Choosing a result clears the form, then fills it with the full customer.
    reset(blank(customer.MOBILENO));
    onCustomer?.(null);
    lookup.mutate(customer.MOBILENO, {
      onSuccess: (record) => {
        reset(fromRecord(record));
        onCustomer?.(record);
      },
      // Fetch failures are logged only.
      onError: (error) => console.error('Customer profile fetch failed', error),
    });
  };

  usePreselectedCustomer(selected, choose);

  const cancel = () => {
    reset(blank());
    setGivenMobile('');
    setSelected(null);
    setSearchKey((key) => key + 1);
    lookup.reset();
    onCustomer?.(null);
  };

  // Each problem is marked on its field and stays under it until that field is edited.
  const markProblems = (problems: Problem[]) => {
    for (const { field, message } of problems) setError(field, { type: 'validate', message });
  };

  const submit = (values: CustomerValues) => {
    const problem = firstProblem(values);
    if (problem) {
      markProblems([problem]);
      showAlert('warning', problem.message);
      return;
    }
    const form = toForm(values);
    const problems = fieldProblems(form);
    if (problems.length > 0) {
      markProblems(problems);
      showAlert('warning', problems[0]!.message);
      return;
    }
    save.submit(form, {
      onSuccess: (body) => {
        if (body.data) {
          reset(fromRecord(body.data));
          setSelected({ CUSTNAME: body.data.custname, MOBILENO: body.data.mobileno });
          onCustomer?.(body.data);
        }
        showAlert('success', body.message ?? MESSAGES.customerSaved);
      },
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'refused') {
          const field = failure.message ? fieldOfRefusal(failure.message) : null;
          if (field && failure.message) markProblems([{ field, message: failure.message }]);
          showAlert('warning', failure.message ?? MESSAGES.saveFailed);
        } else if (failure.kind === 'exception') showAlert('error', MESSAGES.saveFailed);
      },
    });
  };

  const mayExport = useMayCall('exportTicket');
  const exportAll = () =>
    exporter.mutate(undefined, {
      onError: (error) => {
        const failure = readFailure(error);
        if (failure.kind === 'sessionExpired') return;
        const empty = failure.kind === 'refused' && failure.status === 404;
        showAlert('error', empty ? MESSAGES.noExportData : MESSAGES.exportFailed);
      },
    });

  // Controlled, so that the labels move up when a customer's values are filled in.
  const text = (name: TextName, label: string, maxLength: number, extra: object = {}) => (
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

  const status = lookup.isPending
    ? texts.loading
    : custid != null
      ? texts.existingCustomer(selected ? optionLabel(selected) : `#${custid}`)
      : texts.newCustomer;

  return (
    <Paper
      variant="outlined"
      sx={{ display: 'flex', overflow: 'hidden', maxWidth: 1100, position: 'relative' }}
    >
      <Box sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 4 }}>
        {busy && (
          <LinearProgress
            color="secondary"
            aria-label={lookup.isPending ? texts.loading : texts.saving}
          />
        )}
      </Box>
      <Box
        sx={{
          display: { xs: 'none', md: 'flex' },
          alignItems: 'center',
          justifyContent: 'center',
          flex: '0 0 32%',
          p: 3,
          background: 'linear-gradient(160deg, #fbf3e4 0%, #f1dfc0 100%)',
        }}
      >
        <Box component="img" src={illustration} alt="" sx={{ width: '100%', maxWidth: 240 }} />
      </Box>
      <Box
        component="form"
        noValidate
        onSubmit={(event) => {
          // The marks of the last SAVE go first: react-hook-form submits only a form without errors.
          clearErrors();
          void handleSubmit(submit)(event);
        }}
        aria-labelledby="customer-form-title"
        sx={{ flex: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}
      >
        <Typography id="customer-form-title" component="h2" variant="h5" sx={{ mb: 0.5 }}>
          {PAGE_TITLES.customerProfileForm}
        </Typography>
        <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
          {status}
        </Typography>
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
            gap: 2,
          }}
        >
          <Box sx={{ gridColumn: '1 / -1' }}>
            <CustomerSearch
              key={searchKey}
              value={selected}
              onSelect={choose}
              label={texts.search}
              pause={LIMITS.customerSearchPauseMs}
              autoFocus
              initialText={givenMobile}
              // Typing updates the mobile number.
              onTextChange={(typed) => {
                setValue('mobileno', typed.trim());
                if (mobileError) clearErrors('mobileno');
              }}
              errorText={mobileError}
            />
          </Box>
          <Box sx={{ gridColumn: '1 / -1' }}>
            {text('custname', texts.name, LIMITS.customerNameMaxLength)}
          </Box>
          {text('email', texts.email, LIMITS.emailMaxLength, { inputMode: 'email' })}
          {text('address', texts.address, LIMITS.addressMaxLength)}
          {text('city', texts.city, LIMITS.cityMaxLength)}
          {text('pincode', texts.pincode, LIMITS.pincodeLength, { inputMode: 'numeric' })}
          {text('state', texts.state, LIMITS.stateMaxLength)}
          <DateInput
            control={control}
            clearErrors={clearErrors}
            name="dob"
            label={texts.dob}
            disableFuture
          />
          <DateInput control={control} clearErrors={clearErrors} name="doa" label={texts.doa} />
          {text('aadhaar', texts.aadhaar, LIMITS.aadhaarMaxLength, { inputMode: 'numeric' })}
          {text('pan', texts.pan, LIMITS.panLength, {
            autoCapitalize: 'characters',
            style: { textTransform: 'uppercase' },
          })}
        </Box>
        <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 3, flexWrap: 'wrap' }}>
          <SubmitButton pending={save.isPending} pendingLabel={texts.saving} disabled={busy}>
            {texts.save}
          </SubmitButton>
          <Button type="button" variant="outlined" disabled={busy} onClick={cancel}>
            {texts.cancel}
          </Button>
          {mayExport && (
            <Button
              type="button"
              variant="outlined"
              color="secondary"
              disabled={exporter.isPending}
              onClick={exportAll}
              startIcon={
                exporter.isPending ? (
                  <CircularProgress size={18} color="inherit" aria-label={texts.exporting} />
                ) : (
                  <DownloadIcon />
                )
              }
              sx={{ ml: { sm: 'auto !important' }, color: 'secondary.dark' }}
            >
              {texts.exportAll}
            </Button>
          )}
        </Stack>
      </Box>
    </Paper>
  );
}

interface DateInputProps {
  control: Control<CustomerValues>;
  clearErrors: UseFormClearErrors<CustomerValues>;
  name: 'dob' | 'doa';
  label: string;
  disableFuture?: boolean;
}

/** A DD/MM/YYYY date picker with a clear button in the field and in the calendar. */
function DateInput({ control, clearErrors, name, label, disableFuture }: DateInputProps) {
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
