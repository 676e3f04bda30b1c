import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  API_PATHS,
  LEDGER_TEXTS,
  LIMITS,
  isIndianMobile,
  type CustomerSearchResult,
  type customerSearchResponse,
} from '@kanak/contract';
import { api, expectSuccess, type Answer } from '../lib/api';
import { takeEarlyTyping } from '../lib/early-typing';

const texts = LEDGER_TEXTS.customerSearch;

/** A customer as the search lists it. */
export type CustomerOption = CustomerSearchResult;

/** GET /api/customers/get-all-customers?search=: digits match mobiles by prefix, text names. */
export const customerSearchQuery = (search: string) =>
  queryOptions({
    queryKey: ['customers', 'search', search] as const,
    queryFn: async ({ signal }) => {
      const { data } = await api.get<Answer<typeof customerSearchResponse>>(
        API_PATHS.searchCustomers,
        { params: { search }, signal },
      );
      return expectSuccess(data).data;
    },
    enabled: search !== '',
    staleTime: 10_000,
  });

/** `value`, once it has stayed the same for `pause` ms. */
function usePaused<T>(value: T, pause: number): T {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setPaused(value), pause);
    return () => window.clearTimeout(timer);
  }, [value, pause]);
  return paused;
}

const sameCustomer = (a: CustomerOption, b: CustomerOption) => a.MOBILENO === b.MOBILENO;

export interface CustomerSearchProps {
  /** The chosen customer, or null. */
  value: CustomerOption | null;
  /** Called with the chosen customer, or null when the box is cleared. */
  onSelect: (customer: CustomerOption | null) => void;
  label: string;
  /** How long typing must pause before the search is sent (1000 ms). */
  pause?: number;
  autoFocus?: boolean;
  /** The text as typed (Customer Profile keeps it as the mobile number). */
  onTextChange?: (text: string) => void;
  disabled?: boolean;
  /** A problem with the typed number (Customer Profile's SAVE), shown under the box. */
  errorText?: string;
  /** Text the box opens with, searched for as if typed (a new customer's number). */
  initialText?: string;
  /**
   * Told the whole mobile number searched for when no customer has it, and null once the
   * text or the answer changes (the counter then offers to add the customer).
   */
  onUnknownMobile?: (mobile: string | null) => void;
}

/**
 * Finds a customer by mobile number (prefix) or name. Options read "Name (+91) mobile"; the
 * list is at most 40vh tall; nothing is sent for an empty box, and clearing it empties the
 * options. Arrow keys and Enter choose. To empty it from outside, remount it (change its key).
 */
export function CustomerSearch({
  value,
  onSelect,
  label,
  pause = LIMITS.customerSearchPauseMs,
  autoFocus,
  onTextChange,
  disabled,
  errorText,
  initialText,
  onUnknownMobile,
}: CustomerSearchProps) {
  // The focus comes with the screen; what was typed while it loaded is not lost.
  const [early] = useState(() => initialText || (autoFocus ? takeEarlyTyping() : ''));
  const [text, setText] = useState(early);
  // What the user typed (not the chosen option's label): only that is searched for.
  const [typed, setTyped] = useState(early);
  const [open, setOpen] = useState(early !== '');
  const search = usePaused(typed.trim(), pause);
  const active = typed.trim() !== '' && search === typed.trim();
  const results = useQuery({ ...customerSearchQuery(search), placeholderData: keepPreviousData });

  useEffect(() => {
    if (early) onTextChange?.(early);
    // Once, on mount: the early text is the first thing typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    // A failed customer search is logged only.
    if (results.error) console.error('Customer search failed', results.error);
  }, [results.error]);

  const found = active ? (results.data ?? []) : [];
  const options = value && !found.some((c) => sameCustomer(c, value)) ? [value, ...found] : found;
  const loading = typed.trim() !== '' && (!active || results.isFetching);
  // "No matching customers" shows under the box, not in a popup: a popup would lie over the
  // next field (Name on Customer Profile) and swallow the click meant for it.
  const noMatch = active && !loading && results.isSuccess && options.length === 0;
  const searchedFor = active && !loading && results.isSuccess ? search : '';
  const unknownMobile =
    isIndianMobile(searchedFor) && !found.some((c) => c.MOBILENO === searchedFor)
      ? searchedFor
      : null;
  useEffect(() => {
    onUnknownMobile?.(unknownMobile);
  }, [unknownMobile, onUnknownMobile]);

  return (
    <Autocomplete<CustomerOption>
      value={value}
      onChange={(_event, customer) => onSelect(customer)}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        setText(next);
        if (reason === 'input' || reason === 'clear') {
          setTyped(next);
          onTextChange?.(next);
        } else {
          // The chosen option's label replaced the text: no search for it.
          setTyped('');
        }
      }}
      open={open && typed.trim() !== '' && options.length > 0}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options}
      // The server already matched them.
      filterOptions={(all) => all}
      getOptionLabel={texts.optionLabel}
      isOptionEqualToValue={sameCustomer}
      renderOption={({ key: _key, ...props }, option) => (
        <li key={option.MOBILENO} {...props}>
          {texts.optionLabel(option)}
        </li>
      )}
      loading={loading}
      loadingText={texts.searching}
      noOptionsText={texts.noOptions}
      autoHighlight
      // The typed text stays (Customer Profile keeps it as the mobile number).
      clearOnBlur={false}
      forcePopupIcon={false}
      disabled={disabled}
      slotProps={{ listbox: { style: { maxHeight: LIMITS.autocompleteMaxHeight } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          autoFocus={autoFocus}
          error={Boolean(errorText)}
          helperText={errorText ?? (noMatch ? texts.noOptions : undefined)}
          slotProps={{
            ...params.slotProps,
            // The error itself is announced by its toast; "No matching customers" by this.
            formHelperText: errorText ? {} : { role: 'status' },
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {loading && (
                    <CircularProgress color="inherit" size={18} aria-label={texts.searching} />
                  )}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
