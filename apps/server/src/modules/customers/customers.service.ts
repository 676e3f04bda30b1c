import {
  AUDIT_HIDDEN,
  cleanName,
  CONSENT_METHODS,
  DATA_RIGHTS_MESSAGES,
  PRIVACY_NOTICE_VERSION,
  type ConsentPurpose,
  type ConsentsWithHistory,
  type CustomerProfile,
  maskAadhaar,
  MASKED_AADHAAR_PATTERN,
  MESSAGES,
  type CustomerForm,
  type CustomerRecord,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import type { FieldCipher } from '../../lib/crypto.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import {
  customersRepo,
  SEARCH_LIMIT,
  type CustomerRow,
  type CustomersRepo,
  type CustomerValues,
  type CustomerWithPoints,
} from './customers.repo.js';

export type CustomersService = ReturnType<typeof createCustomersService>;

/**
 * What the profile shows of the points beside the balance: its worth and what expires soon.
 * The points module's summary reader answers it.
 */
export interface CustomerPoints {
  summaryOf(
    tx: Tx,
    customerId: number,
    balance: number,
    today: string,
  ): Promise<Pick<CustomerProfile, 'pointsValue' | 'pointsExpiringIn30Days'>>;
}

interface Deps {
  db: Db;
  cipher: FieldCipher;
  today: () => string;
  points: CustomerPoints;
}

export function createCustomersService({ db, cipher, today, points }: Deps) {
  /** The profile with the customer's consents and points summary, as the screens show it. */
  const toProfile = async (tx: Tx, row: CustomerWithPoints): Promise<CustomerProfile> => ({
    ...toRecord(row),
    ...(await consentsOf(tx, row.id)),
    ...(await points.summaryOf(tx, row.id, row.pointsBalance, today())),
  });
  /** The profile as just saved, read back with the balance of the customer's points account. */
  const profileOf = async (tx: Tx, id: number) =>
    toProfile(tx, (await customersRepo.findById(tx, id))!);

  async function matching(text: string) {
    const query = text.trim();
    if (!query) return [];
    if (/^\d+$/.test(query)) return customersRepo.searchByMobilePrefix(db, query);
    const starting = await customersRepo.searchByNamePrefix(db, query);
    if (starting.length === SEARCH_LIMIT || query.length < 3) return starting;
    const seen = new Set(starting.map((customer) => customer.MOBILENO));
    const containing = (await customersRepo.searchByNamePart(db, query, SEARCH_LIMIT * 2))
      .filter((customer) => !seen.has(customer.MOBILENO))
      .sort((a, b) => a.CUSTNAME.localeCompare(b.CUSTNAME));
    return [...starting, ...containing].slice(0, SEARCH_LIMIT);
  }

  return {
    /**
     * Digits: mobile numbers starting with them. Text: names starting with it first (the best
     * matches), then names containing it. At most 20, each step bounded by an index. Names as
     * they are shown: one line, nothing hidden.
     */
    async search(text: string) {
      return (await matching(text)).map((customer) => ({
        ...customer,
        CUSTNAME: cleanName(customer.CUSTNAME),
      }));
    },

    /** The profile by id, as saving it answered: a repeated save reads it afresh. */
    async getById(custid: number): Promise<CustomerProfile> {
      const row = await customersRepo.findById(db, custid);
      if (!row) throw new NotFoundError(MESSAGES.customerNotFound);
      return toProfile(db, row);
    },

    /** The customer's consents, as recording one answered: a repeat reads them afresh. */
    consents: (custid: number) => consentsOf(db, custid),

    async getByMobile(mobileno: string): Promise<CustomerProfile> {
      const row = await customersRepo.findByMobile(db, mobileno);
      if (!row) throw new NotFoundError(MESSAGES.customerNotFound);
      return toProfile(db, row);
    },

    /**
     * Records a grant or a withdrawal of consent for one purpose, as told at the counter (or
     * by the customer: signed in, or by a STOP on WhatsApp), under the privacy notice's
     * current version. Every change is a new row; the last one of a purpose is the customer's
     * choice.
     */
    async recordConsent(
      actor: StaffIdentity | null,
      request: { custid: number; purpose: ConsentPurpose; granted: boolean },
      method: (typeof CONSENT_METHODS)['staff' | 'customer' | 'whatsapp'] = CONSENT_METHODS.staff,
      /**
       * Record nothing when the customer's last word on this purpose already says so (a
       * message the customer's phone or Meta sends again). Asked under the customer's row lock,
       * so two deliveries at once record it once.
       */
      unlessAlready = false,
    ) {
      return db.transaction(async (tx) => {
        const customer = await customersRepo.findByIdForUpdate(tx, request.custid);
        if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
        if (customer.erasedAt) throw new ConflictError(DATA_RIGHTS_MESSAGES.consentOfErased);
        if (unlessAlready) {
          const held = await consentsOf(tx, customer.id);
          const latest = held.consentHistory.find((event) => event.purpose === request.purpose);
          if (latest?.granted === request.granted) return held;
        }
        await customersRepo.insertConsent(tx, {
          customerId: customer.id,
          purpose: request.purpose,
          granted: request.granted,
          method,
          noticeVersion: PRIVACY_NOTICE_VERSION,
          recordedBy: actor?.id ?? null,
        });
        await recordAudit(tx, {
          userId: actor?.id ?? null,
          action: request.granted ? 'consent.grant' : 'consent.withdraw',
          entity: 'customer',
          entityId: customer.id,
          detail: {
            purpose: request.purpose,
            noticeVersion: PRIVACY_NOTICE_VERSION,
            ...(actor ? {} : { by: 'the customer' }),
            ...(method === CONSENT_METHODS.whatsapp ? { via: 'WhatsApp' } : {}),
          },
        });
        return consentsOf(tx, customer.id);
      });
    },

    /** Creates (no custid) or updates (custid) a customer profile. */
    async save(actor: StaffIdentity, form: CustomerForm): Promise<CustomerProfile> {
      if (form.dob && form.dob > today()) throw new InvalidInputError(MESSAGES.dobInFuture);
      try {
        return await db.transaction(async (tx) => {
          const values = (previous?: CustomerRow): CustomerValues => ({
            mobileno: form.mobileno,
            custname: form.custname,
            email: form.email,
            address: form.address,
            city: form.city,
            pincode: form.pincode,
            state: form.state,
            dob: form.dob || null,
            doa: form.doa || null,
            pan: form.pan,
            ...aadhaarColumns(form.aadhaar, previous),
            updatedBy: actor.id,
          });
          if (form.custid === null) {
            const row = await customersRepo.insert(tx, { ...values(), createdBy: actor.id });
            await recordAudit(tx, {
              userId: actor.id,
              action: 'customer.create',
              entity: 'customer',
              entityId: row.id,
              ...changedValues(undefined, row),
              mobile: row.mobileno,
            });
            return profileOf(tx, row.id);
          }
          const previous = await customersRepo.findByIdForUpdate(tx, form.custid);
          if (!previous || previous.erasedAt) throw new NotFoundError(MESSAGES.customerNotFound);
          const row = await customersRepo.update(tx, previous.id, values(previous));
          await recordAudit(tx, {
            userId: actor.id,
            action: 'customer.update',
            entity: 'customer',
            entityId: row.id,
            ...changedValues(previous, row),
            mobile: row.mobileno,
          });
          return profileOf(tx, row.id);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'customers_mobileno_key'))
          throw new ConflictError(MESSAGES.mobileTaken);
        throw error;
      }
    },

    /** Whether any customer is stored. */
    hasAny: () => customersRepo.any(db),
  };

  /** Typed masked value: keep the stored number. Empty: forget it. A new number: seal it. */
  function aadhaarColumns(aadhaar: string, previous?: CustomerRow) {
    if (MASKED_AADHAAR_PATTERN.test(aadhaar) && previous?.aadhaarLast4 === aadhaar.slice(-4)) {
      return { aadhaarSealed: previous.aadhaarSealed, aadhaarLast4: previous.aadhaarLast4 };
    }
    if (MASKED_AADHAAR_PATTERN.test(aadhaar)) {
      throw new InvalidInputError(MESSAGES.aadhaarDigits);
    }
    if (!aadhaar) return { aadhaarSealed: null, aadhaarLast4: null };
    const digits = aadhaar.replace(/\s+/g, '');
    return { aadhaarSealed: cipher.encrypt(digits), aadhaarLast4: digits.slice(-4) };
  }
}

const consentsOf = async (tx: Tx, customerId: number) =>
  toConsents(await customersRepo.consentHistory(tx, customerId));

/** Each purpose's latest choice (none recorded: not given) and the whole history. */
export function toConsents(
  history: Awaited<ReturnType<CustomersRepo['consentHistory']>>,
): ConsentsWithHistory {
  const latest = (purpose: ConsentPurpose) =>
    history.find((event) => event.purpose === purpose)?.granted ?? false;
  return {
    consents: { transactional: latest('transactional'), marketing: latest('marketing') },
    consentHistory: history.map((event) => ({
      ...event,
      purpose: event.purpose as ConsentPurpose,
      recordedAt: event.recordedAt.toISOString(),
    })),
  };
}

/** The fields of a customer that the API shows (the exports read only these). */
export type RecordFields = Pick<
  CustomerWithPoints,
  | 'id'
  | 'mobileno'
  | 'custname'
  | 'email'
  | 'address'
  | 'city'
  | 'pincode'
  | 'state'
  | 'dob'
  | 'doa'
  | 'aadhaarLast4'
  | 'pan'
  | 'pointsBalance'
>;

/** The API's shape: no full Aadhaar, dates '' when unset, no mobile once erased. */
export function toRecord(row: RecordFields): CustomerRecord {
  return {
    custid: row.id,
    mobileno: row.mobileno ?? '',
    custname: cleanName(row.custname),
    email: row.email,
    address: row.address,
    city: row.city,
    pincode: row.pincode,
    state: row.state,
    dob: row.dob ?? '',
    doa: row.doa ?? '',
    aadhaar: row.aadhaarLast4 ? maskAadhaar(row.aadhaarLast4) : '',
    pan: row.pan,
    points: row.pointsBalance,
  };
}

const AUDITED_FIELDS = [
  'mobileno',
  'custname',
  'email',
  'address',
  'city',
  'pincode',
  'state',
  'dob',
  'doa',
  'pan',
  'aadhaarSealed',
] as const;

/**
 * The changed fields' values before and after, for the audit log. Aadhaar and PAN show only
 * that they changed: their numbers never reach the log.
 */
function changedValues(before: CustomerRow | undefined, after: CustomerRow) {
  const shown = (row: CustomerRow, field: (typeof AUDITED_FIELDS)[number]) =>
    field === 'aadhaarSealed' || field === 'pan' ? (row[field] ? AUDIT_HIDDEN : null) : row[field];
  const changed = AUDITED_FIELDS.filter((field) => !before || before[field] !== after[field]);
  const name = (field: string) => (field === 'aadhaarSealed' ? 'aadhaar' : field);
  return {
    before: before
      ? Object.fromEntries(changed.map((field) => [name(field), shown(before, field)]))
      : null,
    after: Object.fromEntries(changed.map((field) => [name(field), shown(after, field)])),
  };
}
