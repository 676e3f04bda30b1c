import { useState } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import {
  LEDGER_TEXTS,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  isIndianMobile,
  type CustomerFormInput,
  type CustomerProfile,
} from '@kanak/contract';
import { ChangeForm, useSchemaForm } from '../../components/ChangeForm';
import { SubmitButton } from '../../components/SubmitButton';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { CUSTOMER_PARAM, usePreselectedCustomer } from '../../components/customerFromAddress';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useCustomerLookup, useSaveCustomer } from './api';
import { CustomerDetails } from './CustomerFields';
import { blank, checkedCustomer, fieldOfRefusal, fromRecord, problemsOf } from './customerValues';
import { ExportAllButton } from './ExportAllButton';
import illustration from './customer-card.svg';

const texts = LEDGER_TEXTS.customerProfile;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;

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
  // Each problem is marked on its field and stays under it until that field is edited.
  const form = useSchemaForm(checkedCustomer, blank(givenMobile), { reValidateMode: 'onSubmit' });
  const { control, reset, setValue, setError, clearErrors } = form;
  const mobileError = form.formState.errors.mobileno?.message;
  const custid = useWatch({ control, name: 'custid' });
  const lookup = useCustomerLookup();
  const save = useSaveCustomer();
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

  // The first problem the check marked is also the warning.
  const warn = () => {
    const [first] = problemsOf(form.getValues());
    if (first) showAlert('warning', first.message);
  };

  const submit = (formData: CustomerFormInput) =>
    save.submit(formData, {
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
          if (field && failure.message) {
            setError(field, { type: 'validate', message: failure.message });
          }
          showAlert('warning', failure.message ?? MESSAGES.saveFailed);
        } else if (failure.kind === 'exception') showAlert('error', MESSAGES.saveFailed);
      },
    });

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
      <Box sx={{ flex: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
        <ChangeForm
          form={form}
          change={save}
          onSubmit={submit}
          onInvalid={warn}
          aria-labelledby="customer-form-title"
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
            <CustomerDetails />
          </Box>
          <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 3, flexWrap: 'wrap' }}>
            <SubmitButton pendingLabel={texts.saving} disabled={busy}>
              {texts.save}
            </SubmitButton>
            <Button type="button" variant="outlined" disabled={busy} onClick={cancel}>
              {texts.cancel}
            </Button>
            <ExportAllButton />
          </Stack>
        </ChangeForm>
      </Box>
    </Paper>
  );
}
