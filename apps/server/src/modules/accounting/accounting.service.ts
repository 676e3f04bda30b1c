import {
  formatMonthName,
  pointsWorthPaise,
  rupeesOfPaise,
  ACCOUNTING_MESSAGES,
  DEFAULT_ACCOUNTING_SETTINGS,
  TALLY_LEDGER_FIELDS,
  type AccountingSettings,
  type AccountingSettingsData,
  type InstallmentMode,
  type TallyLedgerField,
  type TallyPushResult,
  todayIn,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { callOutbound, OutboundError } from '../../lib/outbound.js';
import type { BranchesRepo } from '../branches/index.js';
import {
  GatewaySettlementsError,
  type GatewayFailure,
  type GatewaySettlements,
} from '../members/index.js';
import type { pointsMovementByMonth } from '../points/index.js';
import type { SchemesRepo } from '../schemes/index.js';
import type { StaffIdentity } from '../../plugins/types.js';
import {
  accountingRepo,
  type AccountingSettingsRow,
  type NewSettlementRow,
  type SettlementRow,
} from './accounting.repo.js';
import {
  ENVELOPE_END,
  envelopeStart,
  parseImportResult,
  voucherXml,
  type TallyAction,
  type TallyVoucher,
} from './tally-xml.js';

export type AccountingService = ReturnType<typeof createAccountingService>;

interface Deps {
  db: Db;
  /** The installments and closings the vouchers record. */
  schemes: Pick<SchemesRepo, 'installmentsForBooks' | 'closingsForBooks'>;
  branches: Pick<BranchesRepo, 'list'>;
  points: {
    movementByMonth: typeof pointsMovementByMonth;
    /** What one point is worth under the rules in force, in paise. */
    pointValuePaise(tx: Tx): Promise<number>;
  };
  /**
   * Razorpay's settlements, when this server has Razorpay's keys: each becomes a voucher moving
   * the online installments from the clearing ledger to the bank, less Razorpay's fee and GST.
   */
  gateway: GatewaySettlements | undefined;
  /** The store's time zone: a settlement's voucher is dated the store's day it was made. */
  timeZone: string;
  /** Tally's XML server (`TALLY_URL`), when set. */
  tallyUrl: string | undefined;
  /** How long Razorpay may take to answer one call (`RAZORPAY_TIMEOUT`). */
  gatewayTimeoutMs?: number | undefined;
  /** How long Tally may take to answer one batch. */
  tallyTimeoutMs?: number;
  /** Installments read at a time (tests make it small to cross batches). */
  batchSize?: number;
}

export interface VoucherRange {
  from: string;
  to: string;
  branch?: string | undefined;
}

/** Installments read at a time: the file streams out while the next batch is read. */
const BATCH_SIZE = 2_000;
/** Vouchers sent to Tally in one request: Tally answers each in seconds, not minutes. */
export const PUSH_BATCH = 500;
/** How long Tally may take over one request, unless `TALLY_TIMEOUT` says otherwise. */
const TALLY_TIMEOUT_MS = 60_000;
/** Tally's answer to a batch is its counts and a line per refused voucher: a few KB. */
export const TALLY_ANSWER_MAX_BYTES = 1024 * 1024;

// Razorpay pays online installments out later, net of its fee and the GST on it: until then
// they are money Razorpay holds for the shop (the clearing ledger), and each settlement's voucher
// moves them to the bank.
const MODE_LEDGER: Record<InstallmentMode, TallyLedgerField> = {
  cash: 'cashLedger',
  upi: 'upiLedger',
  card: 'cardLedger',
  bank: 'bankLedger',
  cheque: 'chequeLedger',
  online: 'gatewayClearingLedger',
};

/** What a file holds of Razorpay's settlements (the header of the same name says it). */
export type SettlementsIncluded = number | 'not-set' | 'branch';

const GATEWAY_MESSAGES: Record<Exclude<GatewayFailure, 'timeout'>, string> = {
  limited: ACCOUNTING_MESSAGES.razorpayLimited,
  refused: ACCOUNTING_MESSAGES.razorpayRefused,
  redirected: ACCOUNTING_MESSAGES.razorpayRedirected,
  badAnswer: ACCOUNTING_MESSAGES.razorpayBadAnswer,
  unreachable: ACCOUNTING_MESSAGES.razorpayUnreachable,
};

/** Rupees as a narration writes them: `1,234.50`. */
const inRupees = (paise: number) =>
  (paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * A settlement's Receipt: Dr Bank the amount settled, Dr the fee less its GST, Dr the GST, Cr
 * the clearing ledger the gross (what Razorpay collected for the shop in it). A line of nothing
 * is left out: Tally refuses none, but an accountant reads a zero line as a mistake.
 */
function settlementVoucher(row: SettlementRow, settings: AccountingSettings): TallyVoucher | null {
  const gross = row.amountPaise + row.feesPaise;
  if (gross === 0) return null;
  const held =
    row.payments === null
      ? ''
      : ` ${row.payments} ${row.payments === 1 ? 'payment' : 'payments'} of ₹${inRupees(row.paymentsPaise ?? 0)}` +
        `${row.refundsPaise ? `, refunds of ₹${inRupees(row.refundsPaise)}` : ''};`;
  return {
    remoteId: `kanak-razorpay-${row.id}`,
    type: 'Receipt',
    date: row.settledOn,
    number: row.id,
    narration:
      `Razorpay settlement ${row.id}${row.utr ? `, UTR ${row.utr}` : ''}:${held}` +
      ` ₹${inRupees(row.amountPaise)} paid to the bank after Razorpay's fee of` +
      ` ₹${inRupees(row.feesPaise - row.taxPaise)} and GST of ₹${inRupees(row.taxPaise)} on it`,
    lines: [
      { ledger: settings.bankLedger, paise: row.amountPaise, debit: true },
      { ledger: settings.gatewayFeeLedger, paise: row.feesPaise - row.taxPaise, debit: true },
      { ledger: settings.gstInputLedger, paise: row.taxPaise, debit: true },
      { ledger: settings.gatewayClearingLedger, paise: gross, debit: false },
    ].filter((line) => line.paise > 0),
  };
}

const MODE_WORDS: Record<InstallmentMode, string> = {
  cash: 'cash',
  upi: 'UPI',
  card: 'card',
  bank: 'bank transfer',
  cheque: 'cheque',
  online: 'online payment',
};

/** The last day of the month `YYYY-MM`. */
function monthEnd(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return `${month}-${String(last).padStart(2, '0')}`;
}

const toSettings = (
  row: AccountingSettingsRow | undefined,
): Omit<AccountingSettingsData, 'razorpaySettlements'> => ({
  ...DEFAULT_ACCOUNTING_SETTINGS,
  ...(row
    ? {
        company: row.company,
        ...Object.fromEntries(
          TALLY_LEDGER_FIELDS.filter((field) => typeof row.ledgers[field] === 'string').map(
            (field) => [field, row.ledgers[field]!],
          ),
        ),
      }
    : {}),
  isDefault: row === undefined,
});

export function createAccountingService(deps: Deps) {
  const { db } = deps;
  const batchSize = deps.batchSize ?? BATCH_SIZE;

  /**
   * The range's vouchers, in order: a Receipt per installment (Dr the mode's ledger, Cr Scheme
   * Advances), a Journal per scheme closed with a bonus (Dr Scheme Bonus, Cr Scheme Advances),
   * then a Journal per month and branch for the change in the points customers hold, valued at
   * the point's value in force (Dr Loyalty Points Expense, Cr Loyalty Points Liability; the
   * other way round when the points held went down). A month's journal always covers the
   * whole month, so exporting part of a month and later the rest alters it to the month's
   * figure instead of leaving two.
   */
  async function* vouchers(
    range: VoucherRange,
    settings: AccountingSettings,
    settlements: SettlementRow[],
  ): AsyncGenerator<TallyVoucher> {
    const branches = await deps.branches.list(db);
    const codeOf = new Map(branches.map((branch) => [branch.id, branch.code]));
    let branchId: number | undefined;
    if (range.branch !== undefined) {
      branchId = branches.find((branch) => branch.code === range.branch)?.id;
      if (branchId === undefined) throw new NotFoundError(ACCOUNTING_MESSAGES.unknownBranch);
    }
    const scope = { from: range.from, to: range.to, branchId };

    let after: { paidOn: string; createdAt: string; id: number } | undefined;
    for (;;) {
      const batch = await deps.schemes.installmentsForBooks(db, scope, after, batchSize);
      for (const row of batch) {
        const mode = row.mode as InstallmentMode;
        const paise = row.amount * 100;
        yield {
          remoteId: `kanak-installment-${row.id}`,
          type: 'Receipt',
          date: row.paidOn,
          number: row.receipt,
          narration: [
            `Scheme ${row.schemeId} installment for ${row.period}, ${row.custname} (${row.mobileno || 'no mobile'}),`,
            `by ${MODE_WORDS[mode]}${row.reference ? ` ref. ${row.reference}` : ''}`,
          ].join(' '),
          lines: [
            { ledger: settings[MODE_LEDGER[mode]], paise, debit: true },
            { ledger: settings.schemeAdvancesLedger, paise, debit: false },
          ],
        };
      }
      if (batch.length < batchSize) break;
      const last = batch.at(-1)!;
      after = { paidOn: last.paidOn, createdAt: last.createdAt, id: last.id };
    }

    for (const closing of await deps.schemes.closingsForBooks(db, scope)) {
      const paise = closing.bonus * 100;
      yield {
        remoteId: `kanak-scheme-bonus-${closing.id}`,
        type: 'Journal',
        date: closing.closedOn,
        number: `BONUS-${closing.id}`,
        narration: `Bonus on closing scheme ${closing.id}, ${closing.custname} (${closing.mobileno || 'no mobile'})`,
        lines: [
          { ledger: settings.schemeBonusLedger, paise, debit: true },
          { ledger: settings.schemeAdvancesLedger, paise, debit: false },
        ],
      };
    }

    const pointValuePaise = await deps.points.pointValuePaise(db);
    const months = await deps.points.movementByMonth(db, {
      from: `${range.from.slice(0, 7)}-01`,
      to: monthEnd(range.to.slice(0, 7)),
      branchId,
    });
    for (const month of months) {
      const held = month.issued - month.redeemed - month.expired;
      const paise = pointsWorthPaise(Math.abs(held), pointValuePaise);
      if (paise === 0) continue;
      const code = codeOf.get(month.branchId) ?? String(month.branchId);
      const [year, number] = month.month.split('-') as [string, string];
      yield {
        remoteId: `kanak-points-${code}-${month.month}`,
        type: 'Journal',
        date: monthEnd(month.month),
        number: `POINTS-${code}-${year}${number}`,
        narration:
          `Loyalty points of ${formatMonthName(month.month)} at ${code}: ` +
          `${month.issued} issued, ${month.redeemed} redeemed, ${month.expired} expired; ` +
          `${held} points at ${rupeesOfPaise(pointValuePaise).toFixed(2)} rupees a point`,
        lines: [
          { ledger: settings.pointsExpenseLedger, paise, debit: held > 0 },
          { ledger: settings.pointsLiabilityLedger, paise, debit: held < 0 },
        ],
      };
    }

    for (const settlement of settlements) {
      const voucher = settlementVoucher(settlement, settings);
      if (voucher) yield voucher;
    }
  }

  /**
   * Razorpay's settlements of the days, for a whole-chain file: those Razorpay made since the
   * last look are read from its Settlements API (with the recon of their days) and recorded,
   * once each, with an audit row; then every recorded one of the days is answered. Razorpay
   * failing to answer is a 409 in words, before anything is sent: a file quietly without the
   * payouts would leave the clearing ledger wrong.
   */
  async function settlementsFor(
    actor: StaffIdentity,
    range: VoucherRange,
  ): Promise<{ rows: SettlementRow[]; included: SettlementsIncluded }> {
    if (range.branch !== undefined) return { rows: [], included: 'branch' };
    const gateway = deps.gateway;
    if (!gateway) return { rows: [], included: 'not-set' };
    try {
      const { first, last } = await accountingRepo.dayBounds(db, range, deps.timeZone);
      const listed = await gateway.processedBetween(first, last);
      const known = await accountingRepo.settlementsAmong(
        db,
        listed.map((settlement) => settlement.id),
      );
      const fresh = listed
        .filter((settlement) => !known.has(settlement.id))
        .map((settlement) => ({
          ...settlement,
          settledOn: todayIn(deps.timeZone, settlement.settledAt),
        }));
      // One day after another: Razorpay's rate limiter counts calls made at once.
      const contents = new Map<string, Awaited<ReturnType<GatewaySettlements['contentsOfDay']>>>();
      for (const day of new Set(fresh.map((settlement) => settlement.settledOn)))
        contents.set(day, await gateway.contentsOfDay(day));
      const rows: NewSettlementRow[] = fresh.map((settlement) => {
        const held = contents.get(settlement.settledOn)?.get(settlement.id);
        return {
          ...settlement,
          payments: held?.payments ?? null,
          paymentsPaise: held?.paymentsPaise ?? null,
          refundsPaise: held?.refundsPaise ?? null,
          recordedBy: actor.id,
        };
      });
      await db.transaction(async (tx) => {
        const recorded = await accountingRepo.recordSettlements(tx, rows);
        if (recorded.length === 0) return;
        const total = (pick: (row: SettlementRow) => number) =>
          recorded.reduce((sum, row) => sum + pick(row), 0) / 100;
        await recordAudit(tx, {
          userId: actor.id,
          action: 'accounting.razorpaySettlements',
          entity: 'razorpay_settlement',
          entityId: `${range.from}..${range.to}`,
          after: {
            settlements: recorded.map((row) => row.id),
            settled: total((row) => row.amountPaise),
            fee: total((row) => row.feesPaise - row.taxPaise),
            gst: total((row) => row.taxPaise),
          },
        });
      });
    } catch (error) {
      if (!(error instanceof GatewaySettlementsError)) throw error;
      throw new ConflictError(
        error.failure === 'timeout'
          ? ACCOUNTING_MESSAGES.razorpayTimedOut((deps.gatewayTimeoutMs ?? 10_000) / 1000)
          : GATEWAY_MESSAGES[error.failure],
      );
    }
    const rows = await accountingRepo.settlementsBetween(db, range);
    return { rows, included: rows.filter((row) => row.amountPaise + row.feesPaise > 0).length };
  }

  const currentSettings = async () => toSettings(await accountingRepo.findSettings(db));

  return {
    async settings() {
      return { ...(await currentSettings()), razorpaySettlements: deps.gateway !== undefined };
    },

    async saveSettings(actor: StaffIdentity, form: AccountingSettings) {
      await db.transaction(async (tx) => {
        const before = await accountingRepo.findSettings(tx, { forUpdate: true });
        const previous = toSettings(before);
        const { company, ...ledgers } = form;
        await accountingRepo.saveSettings(tx, { company, ledgers, updatedBy: actor.id });
        const changed = (['company', ...TALLY_LEDGER_FIELDS] as const).filter(
          (field) => previous[field] !== form[field],
        );
        await recordAudit(tx, {
          userId: actor.id,
          action: 'accounting.save',
          entity: 'accounting_settings',
          entityId: 1,
          before: Object.fromEntries(changed.map((field) => [field, previous[field]])),
          after: Object.fromEntries(changed.map((field) => [field, form[field]])),
        });
      });
    },

    /**
     * The import file, piece by piece. The first piece is read before the answer starts, so a
     * bad branch code is still a plain 404.
     */
    async exportFile(
      actor: StaffIdentity,
      range: VoucherRange,
    ): Promise<{ file: AsyncIterable<string>; settlements: SettlementsIncluded }> {
      const current = await currentSettings();
      // Razorpay's refusal, like a bad branch code, is answered before the file starts.
      const settled = await settlementsFor(actor, range);
      const source = vouchers(range, current, settled.rows);
      const first = await source.next();
      // Written in pieces of many vouchers: one piece per voucher would cost more in the
      // stream than in the building.
      async function* file() {
        let piece = envelopeStart(current.company);
        if (!first.done) piece += voucherXml(first.value);
        for await (const voucher of source) {
          piece += voucherXml(voucher);
          if (piece.length >= 64 * 1024) {
            yield piece;
            piece = '';
          }
        }
        yield piece + ENVELOPE_END;
      }
      return { file: file(), settlements: settled.included };
    },

    /**
     * Sends the range's vouchers to Tally in batches, each voucher Tally already accepted from
     * an earlier push as an alteration; remembers those of each batch Tally took without an
     * error. Answers Tally's counts added up, and its words for every voucher it refused.
     */
    async push(actor: StaffIdentity, range: VoucherRange): Promise<TallyPushResult> {
      const url = deps.tallyUrl;
      if (!url) throw new ConflictError(ACCOUNTING_MESSAGES.tallyNotSet);
      const current = await currentSettings();
      const settled = await settlementsFor(actor, range);
      const total: TallyPushResult = {
        vouchers: 0,
        created: 0,
        altered: 0,
        errors: 0,
        lineErrors: [],
      };
      let batch: TallyVoucher[] = [];
      const send = async () => {
        if (batch.length === 0) return;
        const ids = batch.map((voucher) => voucher.remoteId);
        const pushed = await accountingRepo.pushedAmong(db, ids);
        const body =
          envelopeStart(current.company) +
          batch
            .map((voucher) => {
              const action: TallyAction = pushed.has(voucher.remoteId) ? 'Alter' : 'Create';
              return voucherXml(voucher, action);
            })
            .join('') +
          ENVELOPE_END;
        const result = await postToTally(url, body, deps.tallyTimeoutMs ?? TALLY_TIMEOUT_MS);
        total.vouchers += batch.length;
        total.created += result.created;
        total.altered += result.altered;
        total.errors += result.errors;
        total.lineErrors.push(...result.lineErrors);
        // Tally does not say which voucher a line error belongs to: a batch with an error is
        // not remembered, and its vouchers go as new again (Tally still matches the REMOTEID).
        if (result.errors === 0) await accountingRepo.markPushed(db, ids, actor.id);
        batch = [];
      };
      let finished = false;
      try {
        for await (const voucher of vouchers(range, current, settled.rows)) {
          batch.push(voucher);
          if (batch.length === PUSH_BATCH) await send();
        }
        await send();
        finished = true;
      } finally {
        // Also when Tally stops answering midway: the batches it took are remembered already.
        if (finished || total.vouchers > 0) await auditPush(db, actor, range, total);
      }
      return total;
    },
  };
}

/** The push's audit row: the days sent and Tally's counts. */
function auditPush(db: Db, actor: StaffIdentity, range: VoucherRange, total: TallyPushResult) {
  return recordAudit(db, {
    userId: actor.id,
    action: 'accounting.tallyPush',
    entity: 'tally',
    entityId: `${range.from}..${range.to}`,
    detail: {
      from: range.from,
      to: range.to,
      vouchers: total.vouchers,
      created: total.created,
      altered: total.altered,
      errors: total.errors,
    },
  });
}

/**
 * One batch to Tally, through callOutbound: the vouchers carry customers' names and mobiles, so
 * a redirect is not followed; a Tally that stalls or floods is given up with words the owner
 * can act on.
 */
async function postToTally(url: string, body: string, timeoutMs: number) {
  let answer: string;
  try {
    answer = (
      await callOutbound(
        url,
        { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8' }, body },
        { timeoutMs, maxBytes: TALLY_ANSWER_MAX_BYTES },
      )
    ).text;
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    throw new ConflictError(
      error.failure === 'timeout'
        ? ACCOUNTING_MESSAGES.tallyTimedOut(timeoutMs / 1000)
        : error.failure === 'redirected'
          ? ACCOUNTING_MESSAGES.tallyRedirected
          : error.failure === 'tooLong'
            ? ACCOUNTING_MESSAGES.tallyAnswerTooLong(TALLY_ANSWER_MAX_BYTES / (1024 * 1024))
            : ACCOUNTING_MESSAGES.tallyUnreachable,
    );
  }
  const result = parseImportResult(answer);
  if (!result) throw new ConflictError(ACCOUNTING_MESSAGES.tallyBadAnswer);
  return result;
}
