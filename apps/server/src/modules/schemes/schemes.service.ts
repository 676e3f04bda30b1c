import {
  addDays,
  CASH_LIMIT_PER_SCHEME,
  formatRupees,
  formatSchemeDate,
  isValidPan,
  MATURITY_DAYS,
  maturityFigures,
  MESSAGES,
  needsPan,
  PAYMENT_MODE_LABELS,
  SCHEME_STATUS,
  type InstallmentReceipt,
  type PaymentMode,
  type SchemeRecord,
  type SchemeStatementRow,
  type SummaryStatusLabel,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';

import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import { schemesRepo, type SchemeRow } from './schemes.repo.js';

export type SchemesService = ReturnType<typeof createSchemesService>;

interface Deps {
  db: Db;
  today: () => string;
  terms: { installments: number; bonusPercent: number };
  /** What schemes need of the customers table, which the customers module owns. */
  customers: Pick<CustomersRepo, 'findForScheme' | 'setPan'>;
}

interface Payment {
  schemeid: number;
  date: string;
  mode: PaymentMode;
  reference: string;
  narration?: string;
}

const SUMMARY_STATUSES: Record<SummaryStatusLabel, string[]> = {
  All: [SCHEME_STATUS.inactive, SCHEME_STATUS.active, SCHEME_STATUS.completed],
  Active: [SCHEME_STATUS.active],
  Inactive: [SCHEME_STATUS.inactive],
  Matured: [SCHEME_STATUS.completed],
};

export function createSchemesService({ db, today, terms, customers }: Deps) {
  const schemeOrFail = async (tx: Tx, schemeid: number, forUpdate = false) => {
    const scheme = await schemesRepo.find(tx, schemeid, { forUpdate });
    if (!scheme || scheme.status === SCHEME_STATUS.cancelled)
      throw new NotFoundError(MESSAGES.schemeNotFound);
    return scheme;
  };

  /** Records one installment with the next receipt number, checking every rule first. */
  async function recordInstallment(
    tx: Tx,
    actor: StaffIdentity,
    scheme: SchemeRow,
    payment: Payment,
  ): Promise<InstallmentReceipt> {
    if (payment.date > today()) throw new InvalidInputError(MESSAGES.entryDateInFuture);
    if (payment.date < scheme.startdt || payment.date > scheme.matdt) {
      throw new InvalidInputError(
        MESSAGES.installmentOutsideTerm(
          formatSchemeDate(scheme.startdt),
          formatSchemeDate(scheme.matdt),
        ),
      );
    }
    const paid = await schemesRepo.installments(tx, scheme.id);
    if (paid.length >= scheme.installments)
      throw new ConflictError(MESSAGES.allInstallmentsPaid(scheme.installments));
    const period = payment.date.slice(0, 7);
    if (paid.some((installment) => installment.period === period)) {
      throw new ConflictError(
        MESSAGES.installmentMonthTaken(formatSchemeDate(payment.date).slice(3)),
      );
    }
    const cashSoFar = paid.filter((i) => i.mode === 'cash').reduce((sum, i) => sum + i.amount, 0);
    if (payment.mode === 'cash' && cashSoFar + scheme.amount >= CASH_LIMIT_PER_SCHEME) {
      throw new ConflictError(
        MESSAGES.cashLimit(formatRupees(CASH_LIMIT_PER_SCHEME), formatRupees(cashSoFar)),
      );
    }
    const receiptNo = await schemesRepo.nextReceiptNo(tx);
    const installment = await schemesRepo.insertInstallment(tx, {
      schemeId: scheme.id,
      receiptNo,
      paidOn: payment.date,
      period,
      amount: scheme.amount,
      mode: payment.mode,
      reference: payment.reference,
      narration: payment.narration ?? '',
      createdBy: actor.id,
    });
    await recordAudit(tx, {
      userId: actor.id,
      action: 'scheme.installment',
      entity: 'scheme',
      entityId: scheme.id,
      detail: { receiptNo, amount: scheme.amount, mode: payment.mode },
    });
    const customer = (await customers.findForScheme(tx, scheme.customerId))!;
    return {
      receiptNo: installment.receiptNo,
      schemeid: scheme.id,
      custname: customer.custname,
      mobileno: customer.mobileno,
      date: installment.paidOn,
      amount: installment.amount,
      mode: payment.mode,
      reference: installment.reference,
      installmentNo: paid.length + 1,
      installments: scheme.installments,
    };
  }

  /** Translates the race-proof constraints into the rules' own messages. */
  const constraintMessages = (error: unknown) => {
    if (isUniqueViolation(error, 'schemes_one_inactive_per_customer'))
      return new ConflictError(MESSAGES.previousSchemePending);
    if (isUniqueViolation(error, 'scheme_installments_month_key'))
      return new ConflictError(MESSAGES.installmentMonthTaken('this month'));
    return error;
  };
  const run = async <T>(work: (tx: Tx) => Promise<T>) => {
    try {
      return await db.transaction(work);
    } catch (error) {
      throw constraintMessages(error);
    }
  };

  return {
    terms,

    async list(custid: number): Promise<SchemeRecord[]> {
      const rows = await schemesRepo.listForCustomer(db, custid);
      return rows.map(({ scheme, paid }) => toRecord(scheme, paid));
    },

    /** Starts a scheme as Inactive; refused while the latest one is still Inactive. */
    async generate(
      actor: StaffIdentity,
      input: { custid: number; mobileno: string; startdt: string; amount: number },
    ) {
      if (input.startdt > today()) throw new InvalidInputError(MESSAGES.startInFuture);
      return run(async (tx) => {
        const customer = await customers.findForScheme(tx, input.custid, { forUpdate: true });
        if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
        if (customer.mobileno !== input.mobileno)
          throw new InvalidInputError(MESSAGES.customerMismatch);
        const latest = await schemesRepo.latestForCustomer(tx, customer.id);
        if (latest?.status === SCHEME_STATUS.inactive)
          throw new ConflictError(MESSAGES.previousSchemePending);
        if (needsPan(input.amount) && !isValidPan(customer.pan))
          throw new ConflictError(MESSAGES.panRequired);
        const scheme = await schemesRepo.insert(tx, {
          customerId: customer.id,
          startdt: input.startdt,
          matdt: addDays(input.startdt, MATURITY_DAYS),
          amount: input.amount,
          installments: terms.installments,
          status: SCHEME_STATUS.inactive,
          createdBy: actor.id,
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'scheme.generate',
          entity: 'scheme',
          entityId: scheme.id,
          detail: { customerId: customer.id, amount: scheme.amount, startdt: scheme.startdt },
        });
        return scheme;
      });
    },

    async pan(custid: number) {
      const customer = await customers.findForScheme(db, custid);
      if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
      return customer.pan;
    },

    async updatePan(actor: StaffIdentity, custid: number, pan: string) {
      await run(async (tx) => {
        const customer = await customers.findForScheme(tx, custid, { forUpdate: true });
        if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
        await customers.setPan(tx, custid, pan, actor.id);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'customer.pan',
          entity: 'customer',
          entityId: custid,
          detail: { changed: customer.pan !== pan },
        });
      });
    },

    /** Cancels an Inactive scheme that has no installment; the row stays, marked x. */
    async cancel(actor: StaffIdentity, schemeid: number) {
      await run(async (tx) => {
        // A cancelled scheme is still found here: cancelling it again is refused, not unknown.
        const scheme = await schemesRepo.find(tx, schemeid, { forUpdate: true });
        if (!scheme) throw new NotFoundError(MESSAGES.schemeNotFound);
        const paid = await schemesRepo.installments(tx, scheme.id);
        if (scheme.status !== SCHEME_STATUS.inactive || paid.length > 0) {
          throw new ConflictError(MESSAGES.onlyInactiveCancellable);
        }
        await schemesRepo.update(tx, scheme.id, {
          status: SCHEME_STATUS.cancelled,
          cancelledBy: actor.id,
          cancelledAt: new Date(),
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'scheme.cancel',
          entity: 'scheme',
          entityId: scheme.id,
        });
      });
    },

    /** The first installment makes an Inactive scheme Active. */
    async activate(actor: StaffIdentity, payment: Payment) {
      return run(async (tx) => {
        const scheme = await schemeOrFail(tx, payment.schemeid, true);
        if (scheme.status !== SCHEME_STATUS.inactive)
          throw new ConflictError(MESSAGES.onlyInactiveActivatable);
        const receipt = await recordInstallment(tx, actor, scheme, {
          ...payment,
          narration: payment.narration ?? '',
        });
        await schemesRepo.update(tx, scheme.id, { status: SCHEME_STATUS.active });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'scheme.activate',
          entity: 'scheme',
          entityId: scheme.id,
        });
        return receipt;
      });
    },

    async addInstallment(actor: StaffIdentity, payment: Payment) {
      return run(async (tx) => {
        const scheme = await schemeOrFail(tx, payment.schemeid, true);
        if (scheme.status !== SCHEME_STATUS.active)
          throw new ConflictError(MESSAGES.onlyActiveInstallments);
        return recordInstallment(tx, actor, scheme, payment);
      });
    },

    /** Pays out: all installments paid, or past maturity. Bonus scales with installments paid. */
    async close(actor: StaffIdentity, schemeid: number) {
      return run(async (tx) => {
        const scheme = await schemeOrFail(tx, schemeid, true);
        if (scheme.status !== SCHEME_STATUS.active)
          throw new ConflictError(MESSAGES.onlyActiveClosable);
        const paid = (await schemesRepo.installments(tx, scheme.id)).length;
        if (paid < scheme.installments && today() <= scheme.matdt) {
          throw new ConflictError(
            MESSAGES.notYetClosable(scheme.installments, formatSchemeDate(scheme.matdt)),
          );
        }
        const { bonus, maturityValue } = maturityFigures(
          scheme.amount,
          paid,
          scheme.installments,
          terms.bonusPercent,
        );
        await schemesRepo.update(tx, scheme.id, {
          status: SCHEME_STATUS.completed,
          bonus,
          maturityValue,
          closedBy: actor.id,
          closedOn: today(),
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'scheme.close',
          entity: 'scheme',
          entityId: scheme.id,
          detail: { paid, bonus, maturityValue },
        });
        return { bonus, maturityValue, paid };
      });
    },

    /** Installment rows (with mode and receipt) and, once closed, the bonus row. */
    async statement(schemeid: number) {
      const scheme = await schemeOrFail(db, schemeid);
      const [customer, installments] = await Promise.all([
        customers.findForScheme(db, scheme.customerId),
        schemesRepo.installments(db, scheme.id),
      ]);
      const rows: SchemeStatementRow[] = installments.map((installment, i) => ({
        date: installment.paidOn,
        narration: [
          `Installment ${i + 1} of ${scheme.installments}`,
          PAYMENT_MODE_LABELS[installment.mode as PaymentMode],
          installment.reference,
          `Receipt ${installment.receiptNo}`,
          installment.narration,
        ]
          .filter(Boolean)
          .join(' · '),
        amount: installment.amount,
        receiptNo: installment.receiptNo,
        mode: installment.mode as PaymentMode,
        reference: installment.reference ?? '',
      }));
      if (scheme.status === SCHEME_STATUS.completed && scheme.bonus) {
        rows.push({
          date: scheme.closedOn ?? scheme.matdt,
          narration: 'Maturity bonus',
          amount: scheme.bonus,
          receiptNo: null,
          mode: null,
          reference: null,
        });
      }
      return {
        scheme: toRecord(scheme, installments.length),
        custname: customer!.custname,
        mobileno: customer!.mobileno,
        rows,
      };
    },

    async summary(
      selected: SummaryStatusLabel,
      filter: { mobileno: string; datefrom: string; dateto: string },
    ) {
      const rows = await schemesRepo.summary(db, {
        statuses: SUMMARY_STATUSES[selected],
        from: filter.datefrom,
        to: filter.dateto,
        mobileno: filter.mobileno,
      });
      return { rows, total: rows.reduce((sum, row) => sum + row.amount, 0) };
    },
  };
}

function toRecord(scheme: SchemeRow, paid: number): SchemeRecord {
  return {
    schemeid: scheme.id,
    startdt: scheme.startdt,
    matdt: scheme.matdt,
    amount: scheme.amount,
    matyn: scheme.status,
    installments: scheme.installments,
    paid,
  };
}
