import {
  CONSENT_METHODS,
  CONSENT_PURPOSES,
  CUSTOMER_PERSONAL_FIELDS,
  DATA_RIGHTS_MESSAGES,
  ERASED_CUSTOMER_NAME,
  ERASED_TEXT,
  MESSAGES,
  NOTICE_MESSAGES,
  POINTS_DEFAULT_NARRATION,
  PRIVACY_NOTICE_VERSION,
  type CustomerDataExport,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import {
  eraseFromAuditText,
  eraseNamingFromAuditText,
  recordAudit,
  removeFromAuditDetail,
} from '../../lib/audit.js';
import { namingOf } from '../../lib/naming.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import { toConsents, toRecord, type CustomersRepo } from '../customers/index.js';
import type { NoticesRepo } from '../notices/index.js';
import type { PointsAccountsRepo, PointsRepo } from '../points/index.js';
import type { SchemesRepo } from '../schemes/index.js';

export type DataRightsService = ReturnType<typeof createDataRightsService>;

/** What a customer's copy of their data and their erasure need of the customer's own rows. */
export type DataRightsCustomers = Pick<
  CustomersRepo,
  'findById' | 'findByIdForUpdate' | 'consentHistory' | 'insertConsent' | 'erase'
>;
/** ... and of the ledger's tables. */
export type DataRightsLedger = Pick<
  PointsRepo,
  'allForCustomer' | 'eraseNarrations' | 'eraseNamingInOthers'
>;
/** ... and of the schemes' tables. */
export type DataRightsSchemes = Pick<
  SchemesRepo,
  | 'allForCustomer'
  | 'installmentsOf'
  | 'openForCustomer'
  | 'eraseNarrations'
  | 'eraseNamingInOthers'
>;
/** ... and of the notices to them: those sent, and what an erasure takes out of them. */
export type DataRightsNotices = Pick<NoticesRepo, 'sentToCustomer' | 'eraseForCustomer'>;
/** ... and of their points account: an erasure holds it, as every change of points does. */
export type DataRightsAccounts = Pick<PointsAccountsRepo, 'lockById'>;

interface Deps {
  db: Db;
  customers: DataRightsCustomers;
  ledger: DataRightsLedger;
  schemes: DataRightsSchemes;
  notices: DataRightsNotices;
  accounts: DataRightsAccounts;
  /** The keyed hash an erased customer's number is kept as (the import's, too). */
  erasedMobileHash: (mobile: string) => string;
}

/**
 * A customer's rights over the data held about them: a copy of all of it, and its erasure.
 * Both reach every table that speaks of the customer (the ledger, the schemes, the notices), so
 * they sit above those modules and are handed each one's narrow part.
 */
export function createDataRightsService({
  db,
  customers,
  ledger,
  schemes,
  notices,
  accounts,
  erasedMobileHash,
}: Deps) {
  /**
   * Staff may have named the customer in another customer's row ("paid by her brother Ravi
   * Kumar 98765 43210"): each mention, by number or by name, becomes "(erased)", in the
   * ledger and its edit history, the installments, and those rows' audit trail. Answers how
   * many rows changed.
   */
  async function eraseNamingInOthers(
    tx: Tx,
    customer: { id: number; custname: string; mobileno: string | null },
  ) {
    const naming = namingOf(customer.custname, customer.mobileno);
    if (!naming) return 0;
    const { mrns, historyRows } = await ledger.eraseNamingInOthers(
      tx,
      customer.id,
      naming,
      ERASED_TEXT,
    );
    const installments = await schemes.eraseNamingInOthers(tx, customer.id, naming, ERASED_TEXT);
    const auditRows = await eraseNamingFromAuditText(
      tx,
      [
        { entity: 'points_entry', ids: mrns },
        { entity: 'scheme', ids: [...new Set(installments.map((row) => row.schemeId))] },
      ],
      naming,
      ERASED_TEXT,
    );
    return mrns.length + historyRows + installments.length + auditRows;
  }

  return {
    /** Everything held about one customer, for the customer to take away. */
    async dataExport(custid: number): Promise<CustomerDataExport> {
      return db.transaction(
        async (tx) => {
          const row = await customers.findById(tx, custid);
          if (!row) throw new NotFoundError(MESSAGES.customerNotFound);
          const entries = await ledger.allForCustomer(tx, row.id);
          const schemeRows = await schemes.allForCustomer(tx, row.id);
          const installments = await schemes.installmentsOf(
            tx,
            schemeRows.map((scheme) => scheme.id),
          );
          const { consents, consentHistory } = toConsents(
            await customers.consentHistory(tx, row.id),
          );
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
        const customer = await customers.findByIdForUpdate(tx, custid);
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
        const { consents } = toConsents(await customers.consentHistory(tx, customer.id));
        for (const purpose of CONSENT_PURPOSES) {
          if (!consents[purpose]) continue;
          await customers.insertConsent(tx, {
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
        const namedElsewhere = await eraseNamingInOthers(tx, customer);
        const erased = await customers.erase(
          tx,
          customer.id,
          actor.id,
          ERASED_CUSTOMER_NAME,
          customer.mobileno ? erasedMobileHash(customer.mobileno) : null,
        );
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
          // How many of other customers' rows named them: a count, never what they said.
          detail: {
            removed: CUSTOMER_PERSONAL_FIELDS,
            pointsBalanceKept: customer.pointsBalance,
            namedInOtherRows: namedElsewhere,
          },
        });
        return {
          custid: erased.id,
          erasedAt: erased.erasedAt!.toISOString(),
          alreadyErased: false,
        };
      });
    },
  };
}
