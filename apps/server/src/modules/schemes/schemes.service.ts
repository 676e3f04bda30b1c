import type { Reader, Reads } from '../../db/reads.js';
import {
  installmentMonth,
  installmentNumber,
  mayClose,
  paidLate,
  planMaturity,
  standardMaturity,
  AUDIT_HIDDEN,
  addDays,
  BACKDATED_ENTRIES,
  type BackdatedEntry,
  CASH_LIMIT_PER_SCHEME,
  formatMonth,
  formatRupees,
  formatSchemeDate,
  isValidPan,
  cleanName,
  earliestDateWithoutReason,
  LIMITS,
  maturityFigures,
  MESSAGES,
  milligramsFor,
  STD_PLAN_CODE,
  valueOfMilligrams,
  needsBackdateReason,
  needsPan,
  PAYMENT_MODE_LABELS,
  type RecordedMode,
  SCHEME_STATUS,
  type InstallmentMonthRefusal,
  type InstallmentReceipt,
  type InstallmentMode,
  receiptLabel,
  type SchemeRecord,
  type SchemeSummaryRow,
  type SchemeStatementRow,
  type SchemePlanKind,
  type SummaryStatusLabel,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { assertOwnBranch, type BranchStaff } from '../../lib/branch-scope.js';

import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { StaffActor } from '../../plugins/types.js';
import { toBranch, type BranchesRepo } from '../branches/index.js';
import type { GoldRatesRepo } from '../gold-rates/index.js';
import type { CustomersRepo } from '../customers/index.js';
import type { NoticeQueue } from '../../lib/notice-queue.js';
import {
  schemesRepo,
  type InstallmentRow,
  type SchemeRow,
  type SummaryFilter,
  type SummaryRow,
} from './schemes.repo.js';
import { schemePlansRepo, type SchemePlanRow } from './scheme-plans.repo.js';

export type SchemesService = ReturnType<typeof createSchemesService>;

interface Deps {
  db: Db;
  /** Where the statement and summary read: the reports replica when it may answer the staff member. */
  reads: Pick<Reads, 'run'>;
  today: () => string;
  terms: { installments: number; bonusPercent: number };
  /** What schemes need of the customers table, which the customers module owns. */
  customers: Pick<CustomersRepo, 'findForScheme' | 'setPan'>;
  /** The branches a receipt is printed for (the branches module owns them). */
  branches: Pick<BranchesRepo, 'findById' | 'findByIds'>;
  /** Tells the customer of a start, a payment and a closing, in the change's transaction. */
  notices: NoticeQueue;
  /** The day's gold rate, at which weight schemes book gold (the gold-rates module's). */
  goldRates: Pick<GoldRatesRepo, 'onDate'>;
  /** The shop's GSTIN as its settings hold it now, printed on receipts; null for none. */
  gstin: (tx: Tx) => Promise<string | null>;
}

interface Payment {
  schemeid: number;
  date: string;
  mode: InstallmentMode;
  reference: string;
  narration?: string;
  /** For the month after the payment date's month, taken early at the customer's request. */
  advance?: boolean;
  /** The month it is for, named by the customer's online order (its date's month otherwise). */
  period?: string;
  /** The owner's reason for a date further back than staff may give (kept in the audit). */
  backdateReason?: string | undefined;
}

/**
 * Who records a payment: a staff member at their branch, or nobody (a customer paying online,
 * recorded for the branch that started the scheme).
 */
interface Recorder {
  id: number | null;
  branchId: number;
}

const SUMMARY_STATUSES: Record<SummaryStatusLabel, string[]> = {
  All: [SCHEME_STATUS.inactive, SCHEME_STATUS.active, SCHEME_STATUS.completed],
  Active: [SCHEME_STATUS.active],
  Inactive: [SCHEME_STATUS.inactive],
  Matured: [SCHEME_STATUS.completed],
};

interface SummaryForm {
  mobileno: string;
  datefrom: string;
  dateto: string;
}

const summaryFilter = (selected: SummaryStatusLabel, form: SummaryForm): SummaryFilter => ({
  statuses: SUMMARY_STATUSES[selected],
  from: form.datefrom,
  to: form.dateto,
  mobileno: form.mobileno,
});

export function createSchemesService({
  db,
  reads,
  today,
  terms,
  customers,
  branches,
  notices,
  goldRates,
  gstin,
}: Deps) {
  /** The receipt's GSTIN field: the shop's, read in the installment's transaction; none without. */
  const gstinOn = async (tx: Tx) => {
    const number = await gstin(tx);
    return number ? { gstin: number } : {};
  };

  /**
   * The reason to keep for an entry dated `date`: none within the days any staff member may
   * date back; further back only the owner dates it, and must say why.
   */
  const backdateReasonFor = (
    actor: BranchStaff,
    entry: BackdatedEntry,
    date: string,
    reason: string | undefined,
  ) => {
    if (!needsBackdateReason(date, today())) return undefined;
    const earliest = formatSchemeDate(earliestDateWithoutReason(today()));
    if (actor.role !== 'owner')
      throw new ForbiddenError(
        MESSAGES.backdateTooFar(actor.role, BACKDATED_ENTRIES[entry], earliest),
      );
    if (!reason) throw new InvalidInputError(MESSAGES.backdateReasonRequired(earliest));
    return reason;
  };

  /** The scheme's plan; none for the standard scheme (STD). */
  const planOf = async (tx: Tx, scheme: SchemeRow) =>
    scheme.planId === null ? undefined : schemePlansRepo.byId(tx, scheme.planId);

  /**
   * The plan a new scheme starts on: none (the standard scheme, STD) without a code or with
   * STD's. The plan row stays share-locked until the scheme is in, so an edit of its terms
   * either sees the scheme or comes first.
   */
  const planToStart = async (tx: Tx, code: string | undefined, amount: number) => {
    if (!code || code === STD_PLAN_CODE) return undefined;
    const plan = await schemePlansRepo.byCode(tx, code, { lock: 'share' });
    if (!plan) throw new InvalidInputError(MESSAGES.schemePlanNotFound(code));
    if (!plan.active) throw new ConflictError(MESSAGES.schemePlanInactive(code));
    if (amount < plan.minAmount)
      throw new InvalidInputError(MESSAGES.schemePlanMinAmount(code, formatRupees(plan.minAmount)));
    return plan;
  };

  /** The 22K rate of the day in paise a gram; refused when nobody has entered it. */
  const rateOn = async (tx: Tx, date: string) => {
    const rate = await goldRates.onDate(tx, date);
    if (!rate) throw new ConflictError(MESSAGES.goldRateMissing);
    return rate.rate22kPaise;
  };

  /** The receipt's notice: the amount, its number, and "k of n" installments. */
  const tellOfPayment = (
    tx: Tx,
    actor: Recorder,
    scheme: SchemeRow,
    event: 'schemeStarted' | 'installmentReceived',
    receipt: InstallmentReceipt,
  ) =>
    notices.queue(tx, {
      event,
      customerId: scheme.customerId,
      branchId: actor.branchId,
      facts: {
        amount: receipt.amount,
        receipt: receipt.receiptNo,
        paid: receipt.installmentNo,
        total: receipt.installments,
      },
    });

  const schemeOrFail = async (tx: Tx, schemeid: number, forUpdate = false) => {
    const scheme = await schemesRepo.find(tx, schemeid, { forUpdate });
    if (!scheme || scheme.status === SCHEME_STATUS.cancelled)
      throw new NotFoundError(MESSAGES.schemeNotFound);
    return scheme;
  };

  /** The gold a weight scheme holds, its bonus in gold and their value at today's rate. */
  const goldAtClosing = async (tx: Tx, installments: InstallmentRow[], bonus: number) => {
    const ratePaise = await rateOn(tx, today());
    const mg = installments.reduce((sum, installment) => sum + (installment.mg ?? 0), 0);
    const bonusMg = milligramsFor(bonus, ratePaise);
    return { ratePaise, mg, bonusMg, value: valueOfMilligrams(mg + bonusMg, ratePaise) };
  };

  /** The scheme's customer's mobile number, for the audit row's mobile filter. */
  const mobileOf = async (tx: Tx, customerId: number) =>
    (await customers.findForScheme(tx, customerId))?.mobileno ?? null;

  /** Records one installment with the next receipt number, checking every rule first. */
  async function recordInstallment(
    tx: Tx,
    actor: Recorder,
    scheme: SchemeRow,
    payment: Payment,
  ): Promise<InstallmentReceipt & { installmentId: number }> {
    const plan = await planOf(tx, scheme);
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
    const { month: period, refusal } = installmentMonth(
      scheme.matdt,
      paid.map((installment) => installment.period),
      payment.date,
      { month: payment.period, advance: payment.advance },
    );
    if (refusal) throw new ConflictError(monthRefused(refusal, period, payment.date, scheme.matdt));
    const cashSoFar = paid.filter((i) => i.mode === 'cash').reduce((sum, i) => sum + i.amount, 0);
    if (payment.mode === 'cash' && cashSoFar + scheme.amount >= CASH_LIMIT_PER_SCHEME) {
      throw new ConflictError(
        MESSAGES.cashLimit(formatRupees(CASH_LIMIT_PER_SCHEME), formatRupees(cashSoFar)),
      );
    }
    // A weight scheme's installment buys gold at its own day's rate.
    const rate22kPaise = plan?.kind === 'weight' ? await rateOn(tx, payment.date) : null;
    const mg = rate22kPaise === null ? null : milligramsFor(scheme.amount, rate22kPaise);
    const branch = (await branches.findById(tx, actor.branchId))!;
    const receiptNo = await schemesRepo.nextReceiptNo(tx, branch.id);
    const receipt = receiptLabel(branch.code, receiptNo);
    const installment = await schemesRepo.insertInstallment(tx, {
      schemeId: scheme.id,
      branchId: branch.id,
      receiptNo,
      receipt,
      paidOn: payment.date,
      period,
      amount: scheme.amount,
      mode: payment.mode,
      reference: payment.reference,
      narration: payment.narration ?? '',
      rate22kPaise,
      mg,
      createdBy: actor.id,
    });
    const customer = (await customers.findForScheme(tx, scheme.customerId))!;
    await recordAudit(tx, {
      userId: actor.id,
      action: 'scheme.installment',
      entity: 'scheme',
      entityId: scheme.id,
      after: {
        receiptNo: receipt,
        paidOn: payment.date,
        amount: scheme.amount,
        mode: payment.mode,
        ...(period !== payment.date.slice(0, 7) ? { forMonth: period } : {}),
        ...(mg === null ? {} : { rate22kPaise, mg }),
        ...(payment.backdateReason ? { backdateReason: payment.backdateReason } : {}),
      },
      mobile: customer.mobileno,
    });
    return {
      installmentId: installment.id,
      receiptNo: installment.receipt,
      branch: toBranch(branch),
      schemeid: scheme.id,
      custname: cleanName(customer.custname),
      mobileno: customer.mobileno,
      date: installment.paidOn,
      amount: installment.amount,
      mode: payment.mode,
      reference: installment.reference,
      installmentNo: installmentNumber(paid.length),
      installments: scheme.installments,
      forMonth: period,
      paidSoFar: amountOf(paid) + installment.amount,
      ...(mg === null ? {} : { rate22k: rate22kPaise! / 100, mg }),
      ...(await gstinOn(tx)),
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

  /**
   * What closing this scheme pays today, refused as closing would be: the branch that started
   * it (or the owner), an Active scheme, every installment paid or its maturity passed.
   */
  async function closing(tx: Tx, actor: StaffActor & BranchStaff, scheme: SchemeRow) {
    // The branch that started the scheme pays it out; the owner may close any.
    assertOwnBranch(actor, scheme.branchId);
    if (scheme.status !== SCHEME_STATUS.active)
      throw new ConflictError(MESSAGES.onlyActiveClosable);
    const installments = await schemesRepo.installments(tx, scheme.id);
    const paid = installments.length;
    if (!mayClose({ ...scheme, active: true, paid }, today())) {
      throw new ConflictError(
        MESSAGES.notYetClosable(scheme.installments, formatSchemeDate(scheme.matdt)),
      );
    }
    const plan = await planOf(tx, scheme);
    const { bonus, earning, redeemBy, lapsed } = bonusOf(scheme, plan, installments);
    // A weight scheme is paid out as its gold, the bonus bought at the closing day's rate.
    const gold = plan?.kind === 'weight' ? await goldAtClosing(tx, installments, bonus) : undefined;
    const maturityValue = gold ? gold.value : scheme.amount * paid + bonus;
    return { paid, bonus, maturityValue, earning, plan, gold, redeemBy, lapsed };
  }

  /**
   * The bonus closing pays today for these installments, and `toCome` more paid on time. A
   * plan's bonus is earned by the installments paid on time, and only while the scheme is
   * redeemed within the plan's days after maturity: later, the customer takes what they paid in
   * (or their gold) without it. The standard scheme (STD) earns it by every installment paid,
   * whenever it closes, as it always has.
   */
  function bonusOf(
    scheme: SchemeRow,
    plan: SchemePlanRow | undefined,
    installments: InstallmentRow[],
    toCome = 0,
  ) {
    const redeemBy = plan ? addDays(scheme.matdt, plan.redeemWithinDays) : undefined;
    const lapsed = redeemBy !== undefined && today() > redeemBy;
    const earning = !plan
      ? installments.length + toCome
      : lapsed
        ? 0
        : onTimeCount(scheme, installments, plan.graceDays) + toCome;
    const { bonus } = maturityFigures(
      scheme.amount,
      earning,
      scheme.installments,
      plan ? plan.bonusPercent : terms.bonusPercent,
    );
    return { bonus, earning, redeemBy, lapsed };
  }

  /** The figures closing answers with, as the close confirmation shows them. */
  const closingAnswer = ({
    paid,
    bonus,
    maturityValue,
    earning,
    plan,
    gold,
    redeemBy,
    lapsed,
  }: Closing) => ({
    bonus,
    maturityValue,
    paid,
    ...(plan ? { onTime: earning, redeemBy, bonusLapsed: lapsed } : {}),
    ...(gold ? { mg: gold.mg, bonusMg: gold.bonusMg, rate22k: gold.ratePaise / 100 } : {}),
  });
  type Closing = Awaited<ReturnType<typeof closing>>;

  return {
    terms,

    /**
     * What an Active scheme pays at maturity once every installment still to pay is paid on
     * time (none more once it has matured), as closing reckons it: the rupees paid in by then,
     * the bonus, and their total. A weight scheme pays out its gold, valued at the closing
     * day's rate: it has no total yet.
     */
    maturityForecast(
      scheme: SchemeRow,
      plan: SchemePlanRow | undefined,
      installments: InstallmentRow[],
    ) {
      const toCome =
        today() > scheme.matdt ? 0 : Math.max(scheme.installments - installments.length, 0);
      const { bonus } = bonusOf(scheme, plan, installments, toCome);
      const paid = scheme.amount * (installments.length + toCome);
      return plan?.kind === 'weight' ? { paid, bonus } : { paid, bonus, total: paid + bonus };
    },

    async list(custid: number): Promise<SchemeRecord[]> {
      const [rows, plans] = await Promise.all([
        schemesRepo.listForCustomer(db, custid),
        schemePlansRepo.list(db),
      ]);
      const byId = new Map(plans.map(({ plan }) => [plan.id, plan]));
      return rows.map(({ scheme, paid }) =>
        toRecord(scheme, paid, scheme.planId === null ? undefined : byId.get(scheme.planId)),
      );
    },

    /** Starts a scheme as Inactive; refused while the latest one is still Inactive. */
    async generate(
      actor: StaffActor & BranchStaff,
      input: {
        custid: number;
        mobileno: string;
        startdt: string;
        amount: number;
        plan?: string | undefined;
        backdateReason?: string | undefined;
      },
    ) {
      if (input.startdt > today()) throw new InvalidInputError(MESSAGES.startInFuture);
      const backdateReason = backdateReasonFor(actor, 'start', input.startdt, input.backdateReason);
      return run(async (tx) => {
        const plan = await planToStart(tx, input.plan, input.amount);
        // A scheme whose whole term is already past is no running scheme: its installments could
        // all be dated back and its bonus paid out the same day.
        const matdt = plan
          ? planMaturity(input.startdt, plan.installments)
          : standardMaturity(input.startdt);
        if (matdt < today()) {
          throw new InvalidInputError(
            MESSAGES.startAlreadyMatured(formatSchemeDate(input.startdt), formatSchemeDate(matdt)),
          );
        }
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
          matdt,
          amount: input.amount,
          installments: plan ? plan.installments : terms.installments,
          planId: plan?.id ?? null,
          status: SCHEME_STATUS.inactive,
          branchId: actor.branchId,
          createdBy: actor.id,
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'scheme.generate',
          entity: 'scheme',
          entityId: scheme.id,
          after: {
            status: scheme.status,
            amount: scheme.amount,
            startdt: scheme.startdt,
            matdt: scheme.matdt,
            ...(plan ? { plan: plan.code } : {}),
            ...(backdateReason ? { backdateReason } : {}),
          },
          mobile: customer.mobileno,
        });
        return scheme;
      });
    },

    /**
     * The name and number a receipt of this scheme is made out to, as they are now: a repeated
     * installment's receipt is completed with them (none once the customer was erased).
     */
    async receiptHolder(schemeid: number) {
      const scheme = await schemesRepo.find(db, schemeid);
      const customer = scheme && (await customers.findForScheme(db, scheme.customerId));
      return { custname: cleanName(customer?.custname ?? ''), mobileno: customer?.mobileno ?? '' };
    },

    async pan(custid: number) {
      const customer = await customers.findForScheme(db, custid);
      if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
      return customer.pan;
    },

    async updatePan(actor: StaffActor, custid: number, pan: string) {
      await run(async (tx) => {
        const customer = await customers.findForScheme(tx, custid, { forUpdate: true });
        // An erased customer (no mobile number) has no PAN to keep.
        if (!customer?.mobileno) throw new NotFoundError(MESSAGES.customerNotFound);
        await customers.setPan(tx, custid, pan, actor.id);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'customer.pan',
          entity: 'customer',
          entityId: custid,
          // Only that the PAN changed: the numbers themselves stay out of the audit log.
          before: { pan: customer.pan ? AUDIT_HIDDEN : null },
          after: { pan: customer.pan === pan ? 'unchanged' : AUDIT_HIDDEN },
          mobile: customer.mobileno,
        });
      });
    },

    /**
     * Cancels an Inactive scheme that has no installment; the row stays, marked x. A manager
     * cancels their own branch's schemes only.
     */
    async cancel(actor: StaffActor & BranchStaff, schemeid: number) {
      await run(async (tx) => {
        // A cancelled scheme is still found here: cancelling it again is refused, not unknown.
        const scheme = await schemesRepo.find(tx, schemeid, { forUpdate: true });
        if (!scheme) throw new NotFoundError(MESSAGES.schemeNotFound);
        assertOwnBranch(actor, scheme.branchId);
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
          before: { status: scheme.status },
          after: { status: SCHEME_STATUS.cancelled },
          mobile: await mobileOf(tx, scheme.customerId),
        });
      });
    },

    /** The first installment makes an Inactive scheme Active. */
    async activate(actor: StaffActor & BranchStaff, payment: Payment) {
      const backdateReason = backdateReasonFor(
        actor,
        'activation',
        payment.date,
        payment.backdateReason,
      );
      return run(async (tx) => {
        const scheme = await schemeOrFail(tx, payment.schemeid, true);
        if (scheme.status !== SCHEME_STATUS.inactive)
          throw new ConflictError(MESSAGES.onlyInactiveActivatable);
        const receipt = await recordInstallment(tx, actor, scheme, {
          ...payment,
          narration: payment.narration ?? '',
          backdateReason,
        });
        await schemesRepo.update(tx, scheme.id, { status: SCHEME_STATUS.active });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'scheme.activate',
          entity: 'scheme',
          entityId: scheme.id,
          before: { status: scheme.status },
          after: { status: SCHEME_STATUS.active },
          mobile: await mobileOf(tx, scheme.customerId),
        });
        await tellOfPayment(tx, actor, scheme, 'schemeStarted', receipt);
        return receipt;
      });
    },

    async addInstallment(actor: StaffActor & BranchStaff, payment: Payment) {
      const backdateReason = backdateReasonFor(
        actor,
        'installment',
        payment.date,
        payment.backdateReason,
      );
      return run(async (tx) => {
        const scheme = await schemeOrFail(tx, payment.schemeid, true);
        if (scheme.status !== SCHEME_STATUS.active)
          throw new ConflictError(MESSAGES.onlyActiveInstallments);
        const receipt = await recordInstallment(tx, actor, scheme, { ...payment, backdateReason });
        await tellOfPayment(tx, actor, scheme, 'installmentReceived', receipt);
        return receipt;
      });
    },

    /**
     * An installment the customer paid online, for the month their order named, in the
     * caller's transaction (which also settles the order): recorded for the branch that started
     * the scheme, by nobody. Refused (409) like any installment when the month is already paid
     * or the scheme is no longer taking installments.
     */
    async recordOnline(tx: Tx, payment: { schemeid: number; period: string; reference: string }) {
      const scheme = await schemeOrFail(tx, payment.schemeid, true);
      if (scheme.status !== SCHEME_STATUS.active)
        throw new ConflictError(MESSAGES.onlyActiveInstallments);
      const recorder = { id: null, branchId: scheme.branchId };
      const receipt = await recordInstallment(tx, recorder, scheme, {
        schemeid: scheme.id,
        date: today(),
        mode: 'online',
        reference: payment.reference,
        period: payment.period,
      });
      await tellOfPayment(tx, recorder, scheme, 'installmentReceived', receipt);
      return receipt;
    },

    /** The receipt of one installment, as printed. */
    async receiptOf(tx: Tx, installmentId: number): Promise<InstallmentReceipt | undefined> {
      const installment = await schemesRepo.installmentById(tx, installmentId);
      if (!installment) return undefined;
      const scheme = (await schemesRepo.find(tx, installment.schemeId))!;
      const paid = await schemesRepo.installments(tx, scheme.id);
      const customer = await customers.findForScheme(tx, scheme.customerId);
      const branch = await branches.findById(tx, installment.branchId);
      const number = paid.findIndex((row) => row.id === installment.id) + 1;
      return {
        receiptNo: installment.receipt,
        branch: branch ? toBranch(branch) : null,
        schemeid: scheme.id,
        custname: cleanName(customer?.custname ?? ''),
        mobileno: customer?.mobileno ?? '',
        date: installment.paidOn,
        amount: installment.amount,
        mode: installment.mode as InstallmentMode,
        reference: installment.reference,
        installmentNo: number,
        installments: scheme.installments,
        forMonth: installment.period,
        paidSoFar: amountOf(paid.slice(0, number)),
      };
    },

    /**
     * Pays out: all installments paid, or past maturity. The bonus scales with the installments
     * paid (a plan's: paid on time, and lapsed past its days to redeem).
     */
    async close(actor: StaffActor & BranchStaff, schemeid: number) {
      return run(async (tx) => {
        const scheme = await schemeOrFail(tx, schemeid, true);
        const figures = await closing(tx, actor, scheme);
        const { paid, bonus, maturityValue, earning, plan, gold, lapsed } = figures;
        await schemesRepo.update(tx, scheme.id, {
          status: SCHEME_STATUS.completed,
          bonus,
          maturityValue,
          closedBy: actor.id,
          closedOn: today(),
          ...(gold ? { bonusMg: gold.bonusMg, closingRatePaise: gold.ratePaise } : {}),
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'scheme.close',
          entity: 'scheme',
          entityId: scheme.id,
          before: { status: scheme.status },
          after: {
            status: SCHEME_STATUS.completed,
            paid,
            bonus,
            maturityValue,
            ...(plan ? { onTime: earning, ...(lapsed ? { bonusLapsed: true } : {}) } : {}),
            ...(gold ? { mg: gold.mg, bonusMg: gold.bonusMg, rate22kPaise: gold.ratePaise } : {}),
          },
          mobile: await mobileOf(tx, scheme.customerId),
        });
        await notices.queue(tx, {
          event: 'schemeClosed',
          customerId: scheme.customerId,
          branchId: actor.branchId,
          facts: { amount: maturityValue, paid, total: scheme.installments },
        });
        return closingAnswer(figures);
      });
    },

    /** What closing would pay today, shown before the call; nothing is written. */
    async closePreview(actor: StaffActor & BranchStaff, schemeid: number) {
      return db.transaction(
        async (tx) => closingAnswer(await closing(tx, actor, await schemeOrFail(tx, schemeid))),
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },

    /**
     * Installment rows (with mode and receipt) and, once closed, the bonus row; read from the
     * reports replica when it may answer `reader`.
     */
    statement: (reader: Reader, schemeid: number) =>
      reads.run(reader, ({ db }) => statementOf(db, schemeid)),

    /**
     * Every row of the filter with their amount, as the screen's original call answers, up to
     * LIMITS.summaryWholeMaxRows; read from the reports replica when it may answer `reader`.
     */
    summary: (reader: Reader, selected: SummaryStatusLabel, form: SummaryForm) =>
      reads.run(reader, ({ db }) => summaryOf(db, selected, form)),

    /**
     * One page of the filter's rows, with how many rows and what amount the whole filter
     * holds; read from the reports replica when it may answer `reader`.
     */
    summaryPage: (
      reader: Reader,
      selected: SummaryStatusLabel,
      form: SummaryForm,
      paging: { page: number; pageSize: number },
    ) => reads.run(reader, ({ db }) => summaryPageOf(db, selected, form, paging)),
  };

  async function statementOf(from: Db, schemeid: number) {
    const scheme = await schemeOrFail(from, schemeid);
    const [customer, installments, plan] = await Promise.all([
      customers.findForScheme(from, scheme.customerId),
      schemesRepo.installments(from, scheme.id),
      planOf(from, scheme),
    ]);
    const late = plan ? lateInstallments(scheme, installments, plan.graceDays) : new Set<number>();
    const branchIds = [...new Set(installments.map((installment) => installment.branchId))];
    const byId = new Map(
      (await branches.findByIds(from, branchIds)).map((branch) => [branch.id, toBranch(branch)]),
    );
    const rows: SchemeStatementRow[] = installments.map((installment, i) => ({
      date: installment.paidOn,
      narration: [
        `Installment ${installmentNumber(i)} of ${scheme.installments}`,
        PAYMENT_MODE_LABELS[installment.mode as RecordedMode],
        installment.reference,
        // An installment imported from other software has no receipt of Kanak's.
        installment.receipt && `Receipt ${installment.receipt}`,
        installment.period === installment.paidOn.slice(0, 7)
          ? ''
          : `In advance for ${formatMonth(installment.period)}`,
        installment.narration,
      ]
        .filter(Boolean)
        .join(' · '),
      amount: installment.amount,
      receiptNo: installment.receipt || null,
      branch: byId.get(installment.branchId) ?? null,
      mode: installment.mode as RecordedMode,
      reference: installment.reference ?? '',
      period: installment.period,
      ...(installment.mg === null
        ? {}
        : { rate22k: installment.rate22kPaise! / 100, mg: installment.mg }),
      ...(plan ? { late: late.has(installment.id) } : {}),
    }));
    if (scheme.status === SCHEME_STATUS.completed && scheme.bonus) {
      rows.push({
        date: scheme.closedOn ?? scheme.matdt,
        narration: 'Maturity bonus',
        amount: scheme.bonus,
        receiptNo: null,
        branch: null,
        mode: null,
        reference: null,
        period: null,
        ...(scheme.bonusMg === null
          ? {}
          : { rate22k: scheme.closingRatePaise! / 100, mg: scheme.bonusMg }),
      });
    }
    return {
      scheme: toRecord(scheme, installments.length, plan, installments),
      custname: cleanName(customer!.custname),
      mobileno: customer!.mobileno,
      rows,
    };
  }

  /**
   * Any staff member may ask for the whole summary over any dates: a wider filter is refused
   * from its count (the roll-up's few rows per day) before a row is read, and the read stops
   * one row past the limit in case schemes started in between.
   */
  async function summaryOf(from: Db, selected: SummaryStatusLabel, form: SummaryForm) {
    const filter = summaryFilter(selected, form);
    const most = LIMITS.summaryWholeMaxRows;
    const tooMany = new InvalidInputError(MESSAGES.summaryTooManyRows(most));
    if ((await schemesRepo.summaryTotals(from, filter)).count > most) throw tooMany;
    const rows = await schemesRepo.summary(from, filter, most + 1);
    if (rows.length > most) throw tooMany;
    return { rows: rows.map(toSummaryRow), total: rows.reduce((sum, row) => sum + row.amount, 0) };
  }

  /** The page and the whole filter's count and amount are read at once, on two connections. */
  async function summaryPageOf(
    from: Db,
    selected: SummaryStatusLabel,
    form: SummaryForm,
    { page, pageSize }: { page: number; pageSize: number },
  ) {
    const filter = summaryFilter(selected, form);
    const [rows, { count, total }] = await Promise.all([
      schemesRepo.summaryPage(from, filter, { limit: pageSize, offset: (page - 1) * pageSize }),
      schemesRepo.summaryTotals(from, filter),
    ]);
    return { rows: rows.map(toSummaryRow), count, total };
  }
}

/** A summary row as the API answers it: the status under the wire's name, `matyn`. */
const toSummaryRow = ({ status, ...row }: SummaryRow): SchemeSummaryRow => ({
  ...row,
  matyn: status,
});

function toRecord(
  scheme: SchemeRow,
  paid: number,
  plan?: SchemePlanRow,
  installments?: InstallmentRow[],
): SchemeRecord {
  const record: SchemeRecord = {
    schemeid: scheme.id,
    startdt: scheme.startdt,
    matdt: scheme.matdt,
    amount: scheme.amount,
    matyn: scheme.status,
    installments: scheme.installments,
    paid,
  };
  if (!plan) return record;
  const kind = plan.kind as SchemePlanKind;
  const mg =
    kind === 'weight' && installments
      ? { mg: installments.reduce((sum, installment) => sum + (installment.mg ?? 0), 0) }
      : {};
  return {
    ...record,
    plan: plan.code,
    kind,
    ...mg,
    redeemBy: addDays(scheme.matdt, plan.redeemWithinDays),
  };
}

/** Why an installment's month was refused, as the counter is told. */
function monthRefused(
  refusal: InstallmentMonthRefusal,
  month: string,
  date: string,
  matdt: string,
) {
  switch (refusal) {
    case 'monthTaken':
      return MESSAGES.installmentMonthTaken(formatMonth(month));
    case 'advanceBeforeThisMonth':
      return MESSAGES.advanceBeforeThisMonth(formatMonth(date.slice(0, 7)));
    case 'advancePastTerm':
      return MESSAGES.advancePastTerm(formatMonth(month), formatSchemeDate(matdt));
    case 'advanceTaken':
      return MESSAGES.advanceAlreadyTaken(formatMonth(month));
  }
}

/** The installments (by id) paid late, each judged by the month it is for. */
function lateInstallments(scheme: SchemeRow, installments: InstallmentRow[], graceDays: number) {
  return new Set(
    installments
      .filter((installment) =>
        paidLate(scheme.startdt, installment.period, installment.paidOn, graceDays),
      )
      .map((installment) => installment.id),
  );
}

const onTimeCount = (scheme: SchemeRow, installments: InstallmentRow[], graceDays: number) =>
  installments.length - lateInstallments(scheme, installments, graceDays).size;

/** Rupees paid in the installments given. */
const amountOf = (installments: Pick<InstallmentRow, 'amount'>[]) =>
  installments.reduce((sum, installment) => sum + installment.amount, 0);
