import { z } from 'zod';
import { fieldName } from '../refusals.js';
import { isIsoDate } from '../dates.js';
import { LIMITS, SENTINEL_DATE } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { LEDGER_TEXTS } from '../ui-texts-ledger.js';
import { dataResponse, storableText } from './common.js';
import {
  INDIAN_MOBILE_PATTERN,
  isValidAadhaar,
  MASKED_AADHAAR_PATTERN,
  PAN_PATTERN,
} from '../validation.js';
import { personName } from './names.js';

/**
 * Any 10 digits, with the screen's two messages (missing / not 10 digits): finds a customer
 * already on file, whose number may predate the Indian-mobile rule, so it can be corrected.
 */
export const mobileOnFile = z
  .string({ error: MESSAGES.enterMobile })
  .trim()
  .min(1, { error: MESSAGES.enterMobile, abort: true })
  .regex(/^\d{10}$/, { error: MESSAGES.mobileLength, abort: true });

/** An Indian mobile number (10 digits, the first 6 to 9): every number that is saved or acted on. */
export const mobileNumber = mobileOnFile.regex(INDIAN_MOBILE_PATTERN, {
  error: MESSAGES.mobileNotIndian,
});

const optionalText = (field: string, max: number) =>
  storableText(field, `${fieldName(field)} must be text.`)
    .trim()
    .max(max, { error: `${fieldName(field)} must be at most ${max} characters.`, abort: true })
    .default('');

/** `''`, the legacy 1900-01-01 (both mean "no date") or a real YYYY-MM-DD date. */
const optionalDate = (field: string) =>
  z
    .string({ error: `${fieldName(field)} must be a date in YYYY-MM-DD format.` })
    .trim()
    .refine((value) => value === '' || isIsoDate(value), {
      error: `${fieldName(field)} must be a real date in YYYY-MM-DD format.`,
    })
    .transform((value) => (value === SENTINEL_DATE ? '' : value))
    .default('');

/** The largest id of an `integer` column; a bigger custid would be a database error, not a 404. */
const MAX_ID = 2_147_483_647;

export const customerSearchQuery = z.object({
  search: storableText('search')
    .trim()
    .max(100, { error: 'Search must be at most 100 characters.' })
    .default(''),
});

export const customerSearchResult = z.object({ CUSTNAME: z.string(), MOBILENO: z.string() });
export type CustomerSearchResult = z.infer<typeof customerSearchResult>;
export const customerSearchResponse = dataResponse(z.array(customerSearchResult));

export const customerDataRequest = z.object({ mobileno: mobileOnFile });

const custidRule = 'Choose the customer again: the customer number sent is not valid.';

/** The Customer Profile form, as saved by update-customer-data. */
export const customerForm = z.object({
  // Digits only: not `1e3` or `0x1F`, which Number() would turn into a customer id.
  custid: z
    .union([z.number(), z.string().trim().regex(/^\d*$/, { error: custidRule })], {
      error: custidRule,
    })
    .nullish()
    .transform((value) => (value === '' || value == null ? null : Number(value)))
    .refine(
      (value) => value === null || (Number.isInteger(value) && value > 0 && value <= MAX_ID),
      { error: custidRule },
    ),
  mobileno: mobileNumber,
  custname: personName('Name', MESSAGES.enterName),
  email: optionalText('Email', LIMITS.emailMaxLength).refine(
    (value) => value === '' || z.email().safeParse(value).success,
    { error: 'Email must be a valid email address, or empty.' },
  ),
  address: optionalText('Address', LIMITS.addressMaxLength),
  city: optionalText('City', LIMITS.cityMaxLength),
  pincode: optionalText('Pincode', LIMITS.pincodeLength).refine(
    (value) => value === '' || /^\d{6}$/.test(value),
    { error: 'Pincode must be 6 digits, or empty.' },
  ),
  state: optionalText('State', LIMITS.stateMaxLength),
  dob: optionalDate('Date of Birth'),
  doa: optionalDate('Anniversary Date'),
  aadhaar: optionalText('Aadhaar', LIMITS.aadhaarMaxLength)
    .refine(
      (value) =>
        value === '' ||
        MASKED_AADHAAR_PATTERN.test(value) ||
        /^\d{12}$/.test(value.replace(/\s+/g, '')),
      { error: MESSAGES.aadhaarDigits, abort: true },
    )
    // Twelve digits that fail the check digit (or start with 0 or 1) are a typing slip.
    .refine(
      (value) => value === '' || MASKED_AADHAAR_PATTERN.test(value) || isValidAadhaar(value),
      {
        error: MESSAGES.aadhaarInvalid,
      },
    ),
  pan: optionalText('PAN', LIMITS.panLength)
    .transform((value) => value.toUpperCase())
    .refine((value) => value === '' || PAN_PATTERN.test(value), {
      error: 'PAN must be 5 letters, 4 digits and a letter (like ABCDE1234F), or empty.',
    }),
});
export type CustomerFormInput = z.input<typeof customerForm>;
export type CustomerForm = z.output<typeof customerForm>;

export const saveCustomerRequest = z.object({ formData: customerForm });

/** A customer as the API returns it: dates '' when unset, Aadhaar masked. */
export const customerRecord = z.object({
  custid: z.number(),
  mobileno: z.string(),
  custname: z.string(),
  email: z.string(),
  address: z.string(),
  city: z.string(),
  pincode: z.string(),
  state: z.string(),
  dob: z.string(),
  doa: z.string(),
  aadhaar: z.string(),
  pan: z.string(),
  /** The loyalty-points balance (not in the spec's form; shown on the points screen). */
  points: z.number(),
});
export type CustomerRecord = z.infer<typeof customerRecord>;
export const customerResponse = dataResponse(customerRecord);
export const customerExportResponse = dataResponse(z.array(customerRecord));
/** A single-use link to the customer CSV, relative to the server's origin. */
export const exportTicketResponse = dataResponse(
  z.object({ url: z.string(), expiresInSeconds: z.number() }),
);

/** What identifies a person in a customer record: all of it goes when the customer is erased. */
export const CUSTOMER_PERSONAL_FIELDS = [
  'mobileno',
  'custname',
  'email',
  'address',
  'city',
  'pincode',
  'state',
  'dob',
  'doa',
  'aadhaar',
  'pan',
] as const satisfies readonly (keyof CustomerRecord)[];

export const CUSTOMER_EXPORT_COLUMNS = [
  'custid',
  ...CUSTOMER_PERSONAL_FIELDS,
  'points',
] as const satisfies readonly (keyof CustomerRecord)[];

/**
 * The header of customer_list.csv: each column as the Customer Profile screen names it, in the
 * order of CUSTOMER_EXPORT_COLUMNS (the JSON export keeps the field names).
 */
const profile = LEDGER_TEXTS.customerProfile;
export const CUSTOMER_EXPORT_HEADERS: Record<(typeof CUSTOMER_EXPORT_COLUMNS)[number], string> = {
  custid: 'Customer ID',
  mobileno: 'Mobile no.',
  custname: profile.name,
  email: profile.email,
  address: profile.address,
  city: profile.city,
  pincode: profile.pincode,
  state: profile.state,
  dob: profile.dob,
  doa: profile.doa,
  aadhaar: profile.aadhaar,
  pan: profile.pan,
  points: 'Loyalty points',
};
