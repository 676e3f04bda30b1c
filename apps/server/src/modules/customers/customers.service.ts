import {
  AUDIT_HIDDEN,
  cleanName,
  CONSENT_METHODS,
  CONSENT_PURPOSES,
  CUSTOMER_PERSONAL_FIELDS,
  DATA_RIGHTS_MESSAGES,
  ERASED_CUSTOMER_NAME,
  ERASED_TEXT,
  POINTS_DEFAULT_NARRATION,
  PRIVACY_NOTICE_VERSION,
  type ConsentPurpose,
  type ConsentsWithHistory,
  type CustomerDataExport,
  type CustomerProfile,
  maskAadhaar,
  MASKED_AADHAAR_PATTERN,
  MESSAGES,
  NOTICE_MESSAGES,
  type CustomerForm,
  type CustomerRecord,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { eraseFromAuditText, recordAudit, removeFromAuditDetail } from '../../lib/audit.js';
import type { FieldCipher } from '../../lib/crypto.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import type { NoticesRepo } from '../notices/notices.repo.js';
import type { PointsAccountsRepo } from '../points/points.ledger.js';
import type { PointsRepo } from '../points/points.repo.js';
import type { PointsSummaryReader } from '../points/points.summary.js';
import type { SchemesRepo } from '../schemes/schemes.repo.js';
import {
  customersRepo,
  SEARCH_LIMIT,
  type CustomerRow,
  type CustomerValues,
  type CustomerWithPoints,
} from './customers.repo.js';

export type CustomersService = ReturnType<typeof createCustomersService>;

/** What a customer's copy of their data and their erasure need of the ledger's tables. */
export type CustomerLedger = Pick<PointsRepo, 'allForCustomer' | 'eraseNarrations'>;
/** ... and of the schemes' tables. */
export type CustomerSchemes = Pick<
  SchemesRepo,
  'allForCustomer' | 'installmentsOf' | 'openForCustomer' | 'eraseNarrations'
>;

/** ... and of the points lots and rules: the balance's value and what expires soon. */
export type CustomerPoints = Pick<PointsSummaryReader, 'summaryOf'>;

/** ... and of their points account: an erasure holds it, as every change of points does. */
export type CustomerAccounts = Pick<PointsAccountsRepo, 'lockById'>;

/** ... and of the notices to them: those sent, and what an erasure takes out of them. */
export type CustomerNotices = Pick<NoticesRepo, 'sentToCustomer' | 'eraseForCustomer'>;

interface Deps {
  db: Db;
  cipher: FieldCipher;
  today: () => string;
  ledger: CustomerLedger;
  schemes: CustomerSchemes;
  points: CustomerPoints;
  accounts: CustomerAccounts;
  notices: CustomerNotices;
}

export function createCustomersService({
  db,
  cipher,
  today,
  ledger,
  schemes,
  points,
  accounts,
  notices,
}: Deps) {
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
     * Records a grant or a withdrawal of consent for one purpose, as told at the counter,
     * under the privacy notice's current version. Every change is a new row; the last one of
     * a purpose is the customer's choice.
     */
    async recordConsent(
      actor: StaffIdentity,
      request: { custid: number; purpose: ConsentPurpose; granted: boolean },
    ) {
      return db.transaction(async (tx) => {
        const customer = await customersRepo.findByIdForUpdate(tx, request.custid);
        if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
        if (customer.erasedAt) throw new ConflictError(DATA_RIGHTS_MESSAGES.consentOfErased);
        await customersRepo.insertConsent(tx, {
          customerId: customer.id,
          purpose: request.purpose,
          granted: request.granted,
          method: CONSENT_METHODS.staff,
          noticeVersion: PRIVACY_NOTICE_VERSION,
          recordedBy: actor.id,
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: request.granted ? 'consent.grant' : 'consent.withdraw',
          entity: 'customer',
          entityId: customer.id,
          detail: { purpose: request.purpose, noticeVersion: PRIVACY_NOTICE_VERSION },
        });
        return consentsOf(tx, customer.id);
      });
    },

    /** Everything held about one customer, for the customer to take away. */
    async dataExport(custid: number): Promise<CustomerDataExport> {
      return db.transaction(
        async (tx) => {
          const row = await customersRepo.findById(tx, custid);
          if (!row) throw new NotFoundError(MESSAGES.customerNotFound);
          const entries = await ledger.allForCustomer(tx, row.id);
          const schemeRows = await schemes.allForCustomer(tx, row.id);
          const installments = await schemes.installmentsOf(
            tx,
            schemeRows.map((scheme) => scheme.id),
          );
          const { consents, consentHistory } = await consentsOf(tx, row.id);
          return {
            exportedAt: new Date().toISOString(),
            noticeVersion: PRIVACY_NOTICE_VERSION,
            profile: { ...toRecord(row), erasedAt: row.erasedAt?.toISOString() ?? null },
            consents,
            consentHistory,
            pointsLedger: entries.map((entry) => ({
              mrn: entry.mrn,
              date: entry.invdate,
              narration: entry.narration,
              credit: entry.credit,
              debit: entry.debit,
              saleAmountPaise: entry.saleAmountPaise,
              source: entry.source,
              createdAt: entry.createdAt.toISOString(),
            })),
            schemes: schemeRows.map((scheme) => ({
              schemeId: scheme.id,
              status: scheme.status,
              startDate: scheme.startdt,
              maturityDate: scheme.matdt,
              amount: scheme.amount,
              installmentCount: scheme.installments,
              bonus: scheme.bonus,
              maturityValue: scheme.maturityValue,
              installments: installments
                .filter((installment) => installment.schemeId === scheme.id)
                .map((installment) => ({
                  receiptNo: installment.receiptNo,
                  paidOn: installment.paidOn,
                  amount: installment.amount,
                  mode: installment.mode,
                  reference: installment.reference,
                  narration: installment.narration,
                })),
            })),
            noticesSent: (await notices.sentToCustomer(tx, row.id)).map((notice) => ({
              event: notice.event,
              text: notice.text,
              sentAt: notice.sentAt!.toISOString(),
            })),
          };
        },
        // One consistent picture of the customer across the tables.
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },

    /**
     * Erases a customer's personal data. The row stays (the ledger, schemes and receipts point
     * at it by id and are tax records), its balance still the sum of its ledger; the mobile
     * number is freed for a new enrolment. Refused while a scheme is still running. Erasing an
     * erased customer again changes nothing.
     */
    async erase(actor: StaffIdentity, custid: number) {
      return db.transaction(async (tx) => {
        // The points account first, as every change of points takes it, then the customers
        // row: a concurrent points entry, scheme start or profile save waits for the erasure,
        // then finds no customer by that mobile number.
        await accounts.lockById(tx, [custid]);
        const customer = await customersRepo.findByIdForUpdate(tx, custid);
        if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
        if (customer.erasedAt)
          return {
            custid: customer.id,
            erasedAt: customer.erasedAt.toISOString(),
            alreadyErased: true,
          };
        const open = await schemes.openForCustomer(tx, customer.id);
        if (open)
          throw new ConflictError(
            open.status === 'a'
              ? DATA_RIGHTS_MESSAGES.eraseActiveScheme(open.id)
              : DATA_RIGHTS_MESSAGES.eraseInactiveScheme(open.id),
          );
        const { consents } = await consentsOf(tx, customer.id);
        for (const purpose of CONSENT_PURPOSES) {
          if (!consents[purpose]) continue;
          await customersRepo.insertConsent(tx, {
            customerId: customer.id,
            purpose,
            granted: false,
            method: CONSENT_METHODS.erasure,
            noticeVersion: PRIVACY_NOTICE_VERSION,
            recordedBy: actor.id,
          });
        }
        // Free text typed by staff may name the customer in any spelling (a nickname, another
        // script, part of the number): all of their narrations go, not only those that match.
        // Kanak's own words (the default narrations, the POS's invoice lines) stay.
        const defaults = Object.values(POINTS_DEFAULT_NARRATION);
        await eraseFromAuditText(
          tx,
          {
            entity: 'customer',
            entityId: customer.id,
            mobile: customer.mobileno,
            records: [
              {
                entity: 'points_entry',
                ids: (await ledger.allForCustomer(tx, customer.id)).map((entry) => entry.mrn),
              },
              {
                entity: 'scheme',
                ids: (await schemes.allForCustomer(tx, customer.id)).map((scheme) => scheme.id),
              },
            ],
          },
          [customer.custname, customer.mobileno ?? '', customer.email],
          defaults,
          ERASED_TEXT,
        );
        await ledger.eraseNarrations(tx, customer.id, ERASED_TEXT, defaults);
        await schemes.eraseNarrations(tx, customer.id, ERASED_TEXT);
        const erased = await customersRepo.erase(tx, customer.id, actor.id, ERASED_CUSTOMER_NAME);
        // Their notices keep when and what kind, not the number or the text; none still
        // waiting goes.
        await notices.eraseForCustomer(tx, customer.id, NOTICE_MESSAGES.skippedNoMobile);
        // The audit rows about this customer keep who did what and when, none of what was erased.
        await removeFromAuditDetail(
          tx,
          { entity: 'customer', entityId: customer.id, mobile: customer.mobileno },
          [...CUSTOMER_PERSONAL_FIELDS],
        );
        await recordAudit(tx, {
          userId: actor.id,
          action: 'customer.erase',
          entity: 'customer',
          entityId: customer.id,
          detail: { removed: CUSTOMER_PERSONAL_FIELDS, pointsBalanceKept: customer.pointsBalance },
        });
        return {
          custid: erased.id,
          erasedAt: erased.erasedAt!.toISOString(),
          alreadyErased: false,
        };
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

    /** Every customer; read `from` the reports replica when the route chooses it. */
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

/** Each purpose's latest choice (none recorded: not given) and the whole history. */
async function consentsOf(tx: Tx, customerId: number): Promise<ConsentsWithHistory> {
  const history = await customersRepo.consentHistory(tx, customerId);
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
