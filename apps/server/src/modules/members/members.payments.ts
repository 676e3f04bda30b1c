import {
  MEMBER_LIMITS,
  MEMBER_MESSAGES,
  MESSAGES,
  cleanName,
  nextPayableMonth,
  SCHEME_STATUS,
  type InstallmentReceipt,
  type SchemeStanding,
  type MarkOnlineRefundRequest,
  type OnlineRefund,
} from '@kanak/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { assertOwnBranch, branchOf, type BranchStaff } from '../../lib/branch-scope.js';
import {
  AppError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../lib/errors.js';
import type { WindowCounter } from '../../plugins/rate-limit-store.js';
import type { SchemesRepo, SchemesService } from '../schemes/index.js';
import { OutboundError } from '../../lib/outbound.js';
import { membersRepo } from './members.repo.js';
import {
  razorpayClient,
  signatureMatches,
  webhookEvent,
  type RazorpaySettings,
} from './razorpay.js';

export type MemberPayments = ReturnType<typeof createMemberPayments>;

type Scheme = NonNullable<Awaited<ReturnType<SchemesRepo['find']>>>;

/** Where a scheme stands for the rules, its `paidMonths` paid. */
export const schemeStanding = (
  scheme: Pick<Scheme, 'status' | 'installments' | 'matdt'>,
  paidMonths: readonly string[],
): SchemeStanding => ({
  active: scheme.status === SCHEME_STATUS.active,
  installments: scheme.installments,
  paid: paidMonths.length,
  matdt: scheme.matdt,
});

/**
 * The month the customer may pay online on `day`, by the schemes' rule (this month's, or once
 * it is paid the next month's, within the term): what the pay call orders, and what the
 * customer's scheme data offers Pay for. Null when nothing may be paid that day.
 */
export const monthPayableOnline = (
  scheme: Pick<Scheme, 'status' | 'installments' | 'matdt'>,
  paidMonths: string[],
  day: string,
) => nextPayableMonth(schemeStanding(scheme, paidMonths), paidMonths, day);

interface Deps {
  db: Db;
  today: () => string;
  razorpay: RazorpaySettings;
  schemes: Pick<SchemesService, 'recordOnline' | 'receiptOf'>;
  schemesRepo: Pick<SchemesRepo, 'find' | 'installments'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>;
  /** Gateway orders each customer started this hour, counted across every instance. */
  ordersPerHour: WindowCounter;
}

interface Settled {
  receipt: InstallmentReceipt | null;
  overpayment: boolean;
  /** Not recorded: the payment's amount is not the order's, or the gateway has not said yet. */
  checking: boolean;
}

/** What the customer is told while the shop or the gateway still has to settle a payment. */
const BEING_CHECKED: Settled = { receipt: null, overpayment: false, checking: true };

/** Orders the reconcile job asks after in one run. */
const RECONCILE_BATCH = 100;
/** Refunds listed at once: more waiting than this is a matter for the gateway's dashboard. */
const REFUNDS_SHOWN = 500;

/**
 * Installments paid online through Razorpay: the order for the next installment due, and its
 * payment recorded once, by whichever of the customer's checkout (verify), the gateway's webhook
 * or the reconcile job sees it first; the others change nothing.
 */
export function createMemberPayments({
  db,
  today,
  razorpay,
  schemes,
  schemesRepo,
  log,
  ordersPerHour,
}: Deps) {
  const gateway = () => {
    const { keyId, keySecret } = razorpay;
    if (!keyId || !keySecret) throw new ConflictError(MEMBER_MESSAGES.onlinePaymentNotSetUp);
    return { keyId, keySecret, client: razorpayClient({ ...razorpay, keyId, keySecret }) };
  };

  /** The audit row of a payment: an installment's receipt, or an overpayment to refund. */
  const auditPayment = (
    tx: Tx,
    order: { orderId: string; schemeId: number; amountPaise: number; period: string },
    payment: { paymentId: string; by: string; receiptNo: string | null },
  ) =>
    recordAudit(tx, {
      userId: null,
      action: payment.receiptNo ? 'scheme.onlinePayment' : 'scheme.onlineOverpayment',
      entity: 'scheme',
      entityId: order.schemeId,
      after: {
        orderId: order.orderId,
        paymentId: payment.paymentId,
        amount: order.amountPaise / 100,
        forMonth: order.period,
        by: payment.by,
        ...(payment.receiptNo ? { receiptNo: payment.receiptNo } : { refund: 'due' }),
      },
    });

  /**
   * Records the order's payment of `receivedPaise` (as the gateway states it), in `tx`, with the
   * order row locked: the first caller records the installment (or, when its month was
   * meanwhile paid at the counter, notes the money as an overpayment for staff to refund); a
   * later one finds it settled and reads the outcome. A payment of any other amount than the
   * order's records no installment: it waits, as a mismatch, for staff to refund it.
   */
  async function settleIn(
    tx: Tx,
    orderId: string,
    payment: { paymentId: string; receivedPaise: number },
    by: string,
  ): Promise<Settled | undefined> {
    const { paymentId, receivedPaise } = payment;
    const order = await membersRepo.orderForUpdate(tx, orderId);
    if (!order) return undefined;
    if (order.status !== 'created') {
      if (order.paymentId !== paymentId) {
        // The customer paid twice: the second payment bought nothing and is for staff to refund.
        const noted = await membersRepo.noteExtraPayment(tx, {
          paymentId,
          orderId,
          amountPaise: receivedPaise,
        });
        if (noted) {
          await auditPayment(tx, order, { paymentId, by, receiptNo: null });
          log.warn({ orderId, schemeId: order.schemeId }, 'members: second payment to refund');
        }
        return { receipt: null, overpayment: true, checking: false };
      }
      if (order.status === 'mismatch') return BEING_CHECKED;
      return {
        receipt: order.installmentId
          ? ((await schemes.receiptOf(tx, order.installmentId)) ?? null)
          : null,
        overpayment: order.status === 'overpaid',
        checking: false,
      };
    }
    if (receivedPaise !== order.amountPaise) {
      // A gateway's word that less (or more) was paid than the installment: recording it as
      // paid would hand the customer a month they did not pay for. The money stays on the
      // staff's list of payments to refund until someone does.
      await membersRepo.settleOrder(tx, orderId, {
        status: 'mismatch',
        paymentId,
        installmentId: null,
        receivedPaise,
      });
      await recordAudit(tx, {
        userId: null,
        action: 'scheme.onlinePaymentMismatch',
        entity: 'scheme',
        entityId: order.schemeId,
        after: {
          orderId,
          paymentId,
          received: receivedPaise / 100,
          expected: order.amountPaise / 100,
          forMonth: order.period,
          by,
          refund: 'due',
        },
      });
      log.warn(
        { orderId, schemeId: order.schemeId, receivedPaise, expectedPaise: order.amountPaise },
        'members: online payment of another amount than its order, to refund',
      );
      return BEING_CHECKED;
    }
    let receipt: (InstallmentReceipt & { installmentId: number }) | null = null;
    try {
      // A savepoint: a refused installment leaves the order's transaction usable.
      receipt = await tx.transaction((inner) =>
        schemes.recordOnline(inner, {
          schemeid: order.schemeId,
          period: order.period,
          reference: paymentId,
        }),
      );
    } catch (error) {
      // A weight installment buys gold at the day's rate: until it is entered the order stays
      // open, and the gateway's next delivery or the reconcile job records it. Money is never
      // turned into a refund for want of a rate.
      if (error instanceof ConflictError && error.message === MESSAGES.goldRateMissing) throw error;
      if (!(
        error instanceof ConflictError ||
        error instanceof InvalidInputError ||
        error instanceof NotFoundError
      ))
        throw error;
    }
    await membersRepo.settleOrder(tx, orderId, {
      status: receipt ? 'paid' : 'overpaid',
      paymentId,
      installmentId: receipt?.installmentId ?? null,
    });
    await auditPayment(tx, order, { paymentId, by, receiptNo: receipt?.receiptNo ?? null });
    if (!receipt)
      log.warn({ orderId, schemeId: order.schemeId }, 'members: online overpayment to refund');
    const { installmentId: _id, ...printed } = receipt ?? { installmentId: 0 };
    return {
      receipt: receipt ? (printed as InstallmentReceipt) : null,
      overpayment: !receipt,
      checking: false,
    };
  }

  return {
    /** Makes a gateway order for the scheme's next installment (this month's, or next month's). */
    async pay(customerId: number, schemeid: number) {
      const { keyId, client } = gateway();
      const scheme = await schemesRepo.find(db, schemeid);
      if (!scheme || scheme.customerId !== customerId || scheme.status === 'x')
        throw new NotFoundError(MESSAGES.schemeNotFound);
      const paid = await schemesRepo.installments(db, scheme.id);
      const period = monthPayableOnline(
        scheme,
        paid.map((installment) => installment.period),
        today(),
      );
      if (period === null) throw new ConflictError(MEMBER_MESSAGES.nothingDue);
      const amount = scheme.amount * 100;
      const wanted = { customerId, schemeId: scheme.id, period, amountPaise: amount };
      const answer = (orderId: string) => ({
        orderId,
        amount,
        currency: 'INR' as const,
        keyId,
        checkoutUrl: razorpay.checkoutUrl,
      });
      // Pay pressed again for the same installment (a checkout closed, a page reloaded): the
      // order already made is paid, and the gateway refuses a second payment of a paid order.
      const open = await membersRepo.openOrderFor(db, wanted, MEMBER_LIMITS.openOrderHours);
      if (open) return answer(open.orderId);
      // Counted before the gateway is asked, in one statement per order: of many started at
      // once, only the hour's allowance reaches Razorpay.
      const { current } = await ordersPerHour.count(String(customerId));
      if (current > MEMBER_LIMITS.ordersPerHourPerCustomer)
        throw new TooManyRequestsError(MEMBER_MESSAGES.tooManyOrders);
      if (
        (await membersRepo.openOrderCount(db, customerId, MEMBER_LIMITS.openOrderHours)) >=
        MEMBER_LIMITS.openOrdersPerCustomer
      )
        throw new TooManyRequestsError(MEMBER_MESSAGES.tooManyOpenOrders);
      let order;
      try {
        order = await client.createOrder({
          amount,
          currency: 'INR',
          receipt: `S${scheme.id}-${period}`,
          notes: { schemeid: String(scheme.id), period },
        });
      } catch (error) {
        log.error({ err: error }, 'members: razorpay order not created');
        throw new AppError(502, MEMBER_MESSAGES.gatewayUnavailable);
      }
      return db.transaction(async (tx) => {
        // Counted again under the customer's lock: orders started at once are written one by
        // one, and one started meanwhile for the same installment is the one to pay. The
        // gateway's order left unused has taken no money.
        await membersRepo.lockCustomer(tx, customerId);
        const meanwhile = await membersRepo.openOrderFor(tx, wanted, MEMBER_LIMITS.openOrderHours);
        if (meanwhile) return answer(meanwhile.orderId);
        if (
          (await membersRepo.openOrderCount(tx, customerId, MEMBER_LIMITS.openOrderHours)) >=
          MEMBER_LIMITS.openOrdersPerCustomer
        )
          throw new TooManyRequestsError(MEMBER_MESSAGES.tooManyOpenOrders);
        await membersRepo.insertOrder(tx, { orderId: order.id, ...wanted });
        // Staff can tell "the customer started paying" from "the payment arrived".
        await recordAudit(tx, {
          userId: null,
          action: 'scheme.onlineOrder',
          entity: 'scheme',
          entityId: scheme.id,
          after: { orderId: order.id, amount: scheme.amount, forMonth: period, by: 'the customer' },
        });
        return answer(order.id);
      });
    },

    /**
     * The customer's checkout says it paid: the signature proves the order and the payment
     * belong together, the gateway says how much was paid, then it is recorded.
     */
    async verify(
      customerId: number,
      body: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
    ): Promise<Settled> {
      const { keySecret, client } = gateway();
      const text = `${body.razorpay_order_id}|${body.razorpay_payment_id}`;
      if (!signatureMatches(text, keySecret, body.razorpay_signature))
        throw new InvalidInputError(MEMBER_MESSAGES.badPaymentSignature);
      const order = await membersRepo.findOrder(db, body.razorpay_order_id);
      if (!order || order.customerId !== customerId)
        throw new NotFoundError(MEMBER_MESSAGES.unknownOrder);
      const paymentId = body.razorpay_payment_id;
      let receivedPaise = order.amountPaise;
      // The signature does not cover the amount: unless this payment is already settled (the
      // webhook came first), the gateway is asked what it captured.
      if (order.status === 'created' || order.paymentId !== paymentId) {
        let captured;
        try {
          captured = (await client.capturedPayments(order.orderId)).find(
            (item) => item.id === paymentId,
          );
        } catch (error) {
          log.warn({ err: error, orderId: order.orderId }, 'members: payment not confirmed yet');
        }
        // Not captured yet, or the gateway out of reach: the webhook or the reconcile job
        // records it once the gateway confirms it.
        if (!captured) return BEING_CHECKED;
        receivedPaise = captured.amountPaise;
      }
      return db.transaction(
        async (tx) =>
          (await settleIn(tx, order.orderId, { paymentId, receivedPaise }, 'checkout'))!,
      );
    },

    /**
     * The gateway's webhook: the signature over the raw body is checked before anything is
     * read; a repeated event id is dropped.
     */
    async webhook(raw: Buffer, signature: string | undefined, eventId: string | undefined) {
      if (!razorpay.webhookSecret) throw new ConflictError(MEMBER_MESSAGES.onlinePaymentNotSetUp);
      if (
        typeof signature !== 'string' ||
        !/^[0-9a-f]{64}$/.test(signature) ||
        !signatureMatches(raw, razorpay.webhookSecret, signature)
      )
        throw new UnauthorizedError(MEMBER_MESSAGES.badPaymentSignature);
      let event;
      try {
        event = webhookEvent.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        throw new InvalidInputError(MESSAGES.invalidJson);
      }
      const payment = event.payload.payment?.entity;
      const orderId = event.payload.order?.entity.id ?? payment?.order_id;
      // A delivery without the payment's amount cannot be checked against its order: the
      // order stays open, and the reconcile job asks the gateway what was paid.
      const wanted =
        (event.event === 'payment.captured' || event.event === 'order.paid') &&
        payment?.status === 'captured' &&
        payment.amount !== undefined &&
        orderId;
      await db.transaction(async (tx) => {
        if (eventId && !(await membersRepo.firstSeen(tx, eventId.slice(0, 100)))) return;
        if (wanted)
          await settleIn(
            tx,
            orderId,
            { paymentId: payment.id, receivedPaise: payment.amount! },
            'webhook',
          );
      });
    },

    /** Asks the gateway after orders left open: a payment it captured is recorded. */
    async reconcile() {
      if (!razorpay.keyId || !razorpay.keySecret) return { checked: 0, settled: 0 };
      const { client } = gateway();
      const open = await membersRepo.openOrders(
        db,
        MEMBER_LIMITS.reconcileAfterMinutes,
        RECONCILE_BATCH,
      );
      let settled = 0;
      for (const { orderId } of open) {
        try {
          const [captured] = await client.capturedPayments(orderId);
          if (!captured) continue;
          await db.transaction((tx) =>
            settleIn(
              tx,
              orderId,
              { paymentId: captured.id, receivedPaise: captured.amountPaise },
              'reconcile',
            ),
          );
          settled++;
        } catch (error) {
          log.warn({ err: error, orderId }, 'members: reconcile could not ask after an order');
          // A gateway that stalls, floods or redirects would do it for each order in turn: the
          // rest wait for the next run.
          if (error instanceof OutboundError) break;
        }
      }
      return { checked: open.length, settled };
    },

    /** The payments for staff to refund: the owner sees every branch's, a manager their own. */
    async refundsDue(staff: BranchStaff): Promise<OnlineRefund[]> {
      const rows = await membersRepo.refundsDue(db, branchOf(staff), REFUNDS_SHOWN);
      return rows.map((row) => ({
        paymentId: row.payment_id,
        orderId: row.order_id,
        schemeid: row.scheme_id,
        custname: cleanName(row.custname),
        mobileno: row.mobileno ?? '',
        amount: Number(row.amount_paise) / 100,
        expected: Number(row.expected_paise) / 100,
        forMonth: row.period,
        paidAt: new Date(row.seen_at).toISOString(),
        reason: row.reason,
        branch: row.branch,
      }));
    },

    /**
     * Staff refunded a payment at the gateway: noted once, with the gateway's refund id, by the
     * branch that started the scheme (or the owner), and audited.
     */
    async markRefunded(staff: BranchStaff & { id: number }, input: MarkOnlineRefundRequest) {
      const { paymentId, reference } = input;
      await db.transaction(async (tx) => {
        const due = await membersRepo.refundForUpdate(tx, paymentId);
        if (!due) throw new ConflictError(MESSAGES.onlineRefundNotDue);
        assertOwnBranch(staff, due.branchId);
        await membersRepo.markRefunded(tx, paymentId, due.secondPayment, reference);
        await recordAudit(tx, {
          userId: staff.id,
          action: 'scheme.onlineRefunded',
          entity: 'scheme',
          entityId: due.schemeId,
          after: {
            orderId: due.orderId,
            paymentId,
            amount: due.amountPaise / 100,
            refundReference: reference,
          },
        });
      });
      return MESSAGES.onlineRefundNoted(paymentId);
    },
  };
}
