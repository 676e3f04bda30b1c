import {
  maskAadhaar,
  MASKED_AADHAAR_PATTERN,
  MESSAGES,
  type CustomerForm,
  type CustomerRecord,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import type { FieldCipher } from '../../lib/crypto.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import {
  customersRepo,
  SEARCH_LIMIT,
  type CustomerRow,
  type CustomerValues,
} from './customers.repo.js';

export type CustomersService = ReturnType<typeof createCustomersService>;

interface Deps {
  db: Db;
  cipher: FieldCipher;
  today: () => string;
}

export function createCustomersService({ db, cipher, today }: Deps) {
  return {
    /**
     * Digits: mobile numbers starting with them. Text: names starting with it first (the best
     * matches), then names containing it. At most 20, each step bounded by an index.
     */
    async search(text: string) {
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
    },

    async getByMobile(mobileno: string): Promise<CustomerRecord> {
      const row = await customersRepo.findByMobile(db, mobileno);
      if (!row) throw new NotFoundError(MESSAGES.customerNotFound);
      return toRecord(row);
    },

    /** Creates (no custid) or updates (custid) a customer profile. */
    async save(actor: StaffIdentity, form: CustomerForm): Promise<CustomerRecord> {
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
              detail: { mobileno: row.mobileno },
            });
            return toRecord(row);
          }
          const previous = await customersRepo.findByIdForUpdate(tx, form.custid);
          if (!previous) throw new NotFoundError(MESSAGES.customerNotFound);
          const row = await customersRepo.update(tx, previous.id, values(previous));
          await recordAudit(tx, {
            userId: actor.id,
            action: 'customer.update',
            entity: 'customer',
            entityId: row.id,
            detail: { changed: changedFields(previous, row) },
          });
          return toRecord(row);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'customers_mobileno_key'))
          throw new ConflictError(MESSAGES.mobileTaken);
        throw error;
      }
    },

    async exportAll(): Promise<CustomerRecord[]> {
      return (await customersRepo.listAll(db)).map(toRecord);
    },

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

/** The API's shape: no full Aadhaar, dates '' when unset. */
export function toRecord(row: CustomerRow): CustomerRecord {
  return {
    custid: row.id,
    mobileno: row.mobileno,
    custname: row.custname,
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

/** Names of the fields that changed (values of identity numbers stay out of the audit log). */
function changedFields(before: CustomerRow, after: CustomerRow) {
  return AUDITED_FIELDS.filter((field) => before[field] !== after[field]).map((field) =>
    field === 'aadhaarSealed' ? 'aadhaar' : field,
  );
}
