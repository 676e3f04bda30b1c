import dayjs, { type Dayjs } from 'dayjs';
import { z } from 'zod';
import {
  LEDGER_TEXTS,
  MESSAGES,
  SENTINEL_DATE,
  customerForm,
  mobileNumber,
  type CustomerFormInput,
  type CustomerRecord,
} from '@kanak/contract';

const texts = LEDGER_TEXTS.customerProfile;
const PAYLOAD_FORMAT = 'YYYY-MM-DD';

/** A date picker's day: none, a whole date, or one still being typed (not valid yet). */
const day = z.custom<Dayjs>((value) => dayjs.isDayjs(value)).nullable();

/** The Customer Profile form as typed: text, and the two dates as the pickers hold them. */
const customerDraft = z.object({
  custid: z.number().nullable(),
  mobileno: z.string(),
  custname: z.string(),
  email: z.string(),
  address: z.string(),
  city: z.string(),
  pincode: z.string(),
  state: z.string(),
  dob: day,
  doa: day,
  aadhaar: z.string(),
  pan: z.string(),
});
export type CustomerValues = z.infer<typeof customerDraft>;
export type FieldName = Exclude<keyof CustomerValues, 'custid'>;
/** The fields typed as text (the mobile number comes from the search box). */
export type TextName = Exclude<FieldName, 'mobileno' | 'dob' | 'doa'>;

export const blank = (mobileno = ''): CustomerValues => ({
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

export const fromRecord = (record: CustomerRecord): CustomerValues => ({
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

/** The form as update-customer-data takes it. */
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

export interface Problem {
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

/**
 * What stops a SAVE, the first one told as the warning: one of the fixed-order warnings on its
 * own, else every field the contract's customerForm refuses.
 */
export function problemsOf(values: CustomerValues): Problem[] {
  const first = firstProblem(values);
  return first ? [first] : fieldProblems(toForm(values));
}

/** The form checked as SAVE checks it, each problem under its field; then read as it is sent. */
export const checkedCustomer = customerDraft
  .superRefine((values, context) => {
    for (const { field, message } of problemsOf(values)) {
      context.addIssue({ code: 'custom', message, path: [field] });
    }
  })
  .transform(toForm);

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
export function fieldOfRefusal(message: string): FieldName | null {
  if (message === MESSAGES.mobileTaken || message.startsWith('Mobile')) return 'mobileno';
  return FIELD_LABELS.find(([, label]) => message.startsWith(label))?.[0] ?? null;
}
