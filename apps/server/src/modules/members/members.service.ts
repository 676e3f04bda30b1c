import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  cleanName,
  CONSENT_METHODS,
  graceDaysOf,
  installmentNumber,
  LIMITS,
  MEMBER_LIMITS,
  MEMBER_MESSAGES,
  MESSAGES,
  monthDueOn,
  nextOfferedMonth,
  overdueFrom,
  SCHEME_STATUS,
  type ConsentPurpose,
  type InstallmentMode,
  type MemberDataExport,
} from '@kanak/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../lib/errors.js';
import type { WindowCounter } from '../../plugins/rate-limit-store.js';
import { toConsents, type CustomersRepo, type CustomersService } from '../customers/index.js';
import type { DataRightsService } from '../data-rights/index.js';
import type { MessagingService } from '../messaging/index.js';
import { sendWhatsApp } from '../notices/index.js';
import type { PointsSummaryReader } from '../points/index.js';
import type { SchemesRepo, SchemesService } from '../schemes/index.js';
import { schemeStanding } from './members.payments.js';
import { membersRepo } from './members.repo.js';

export type MembersService = ReturnType<typeof createMembersService>;

type Scheme = Awaited<ReturnType<SchemesRepo['find']>> & object;
type HomeRow = Awaited<ReturnType<typeof membersRepo.schemesOf>>[number];
type Plan = NonNullable<HomeRow['plan']> | undefined;
type Installment = NonNullable<HomeRow['installment']>;

/** Ledger codes as the customer reads them: no staff names, no narrations. */
const KIND_OF_SOURCE = {
  S: 'Sale',
  X: 'Return',
  R: 'Redemption',
  E: 'Expiry',
  M: 'Adjustment',
} as const;

interface Deps {
  db: Db;
  today: () => string;
  /** Keyed hashes under DATA_KEY: the mobile number's, and the code's. */
  mobileHash: (mobile: string) => string;
  codeHash: (text: string) => string;
  customers: Pick<CustomersRepo, 'findByMobile' | 'findById' | 'consentHistory'>;
  consents: Pick<CustomersService, 'recordConsent' | 'consents'>;
  dataRights: Pick<DataRightsService, 'dataExport'>;
  points: Pick<PointsSummaryReader, 'homeOf'>;
  schemes: Pick<SchemesRepo, 'find' | 'installments' | 'graceDays'>;
  /** A running scheme's figures at maturity, as closing reckons them (the schemes module's). */
  maturity: Pick<SchemesService, 'maturityForecast'>;
  /** Razorpay is set up: the pay call takes payments. */
  onlinePayment: boolean;
  /** The messaging panel the code is sent through, and its providers' addresses. */
  panel: Pick<MessagingService, 'get'>;
  panelUrls: Parameters<typeof sendWhatsApp>[1];
  /**
   * The shop's name as its settings hold it now, read afresh at each call: a code asked for a
   * stranger's number does the same work as one for a customer's, so no copy kept from an
   * earlier request may spare one of them a statement.
   */
  shop: () => Promise<string>;
  /** Counted in the database, so every instance shares the limits. */
  counters: {
    perAddress: WindowCounter;
    perMobileMinute: WindowCounter;
    perMobileHour: WindowCounter;
    checksPerAddress: WindowCounter;
  };
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

/** A customer's own view: sign-in by a one-time code, their points and schemes, their rights. */
export function createMembersService(deps: Deps) {
  const { db, today, customers, schemes } = deps;
  const tooMany = () => new TooManyRequestsError(MEMBER_MESSAGES.tooManyCodes);
  const hashOfCode = (mobileHash: string, code: string) => deps.codeHash(`${mobileHash}:${code}`);

  /**
   * Sent after the answer: a slow provider neither delays it nor tells who is a customer. A
   * number that is no customer's (`mobile` undefined) gets the same steps up to the provider's
   * call, which it never gets.
   */
  const sendCode = async (mobile: string | undefined, code: string) => {
    const config = await deps.panel.get();
    // Read for a stranger too, as the panel is: the same statements either way.
    const shop = await deps.shop();
    if (mobile === undefined) return;
    if (config.panel === '') {
      deps.log.warn('members: no messaging panel is set up; the sign-in code was not sent');
      return;
    }
    const result = await sendWhatsApp(
      { panel: config.panel, instanceId: config.instanceid, token: config.token },
      deps.panelUrls,
      mobile,
      MEMBER_MESSAGES.codeText(code, shop),
      { timeoutMs: LIMITS.noticeSendTimeoutMs },
    );
    if (!result.sent) deps.log.warn({ status: result.status }, 'members: sign-in code not sent');
  };

  /**
   * The installment the customer pays next online, by the pay call's own rule: the one it
   * takes today; with none today, the one the rule offers first on a later month's first day
   * within the term; none once the rule offers no more. Overdue after the scheme's grace.
   */
  const nextInstallmentOf = (scheme: Scheme, months: string[], graceDays: number) => {
    const day = today();
    const next = nextOfferedMonth(schemeStanding(scheme, months), months, day);
    if (next === null) return null;
    const dueOn = monthDueOn(scheme.startdt, next.month);
    return {
      month: next.month,
      installmentNo: installmentNumber(months.length),
      dueOn,
      overdue: day >= overdueFrom(dueOn, graceDays),
      now: next.payableToday,
      online: next.payableToday && deps.onlinePayment,
    };
  };

  const schemeOf = (scheme: Scheme, months: string[], graceDays: number) => ({
    schemeid: scheme.id,
    startdt: scheme.startdt,
    matdt: scheme.matdt,
    amount: scheme.amount,
    paid: months.length,
    installments: scheme.installments,
    nextDue: scheme.nextDue,
    status: scheme.status,
    nextInstallment: nextInstallmentOf(scheme, months, graceDays),
  });

  return {
    /**
     * Sends a sign-in code when the number is a customer's; answers the same either way, after
     * the same work: every number asked for is counted against the limits and gets a code,
     * hashed and recorded, and the sending's first steps; a number that is no customer's gets
     * a code that belongs to nobody and is never sent.
     */
    async requestCode(mobile: string, address: string) {
      if (
        (await deps.counters.perAddress.count(address)).current >
        MEMBER_LIMITS.codesPerHourPerAddress
      )
        throw tooMany();
      const mobileHash = deps.mobileHash(mobile);
      if (
        (await deps.counters.perMobileMinute.count(mobileHash)).current >
          MEMBER_LIMITS.codesPerMinutePerMobile ||
        (await deps.counters.perMobileHour.count(mobileHash)).current >
          MEMBER_LIMITS.codesPerHourPerMobile
      )
        throw tooMany();
      const customer = await customers.findByMobile(db, mobile);
      const code = String(randomInt(0, 10 ** MEMBER_LIMITS.codeDigits)).padStart(
        MEMBER_LIMITS.codeDigits,
        '0',
      );
      await db.transaction((tx) =>
        membersRepo.insertCode(tx, {
          mobileHash,
          customerId: customer?.id ?? null,
          codeHash: hashOfCode(mobileHash, code),
          expiresAt: new Date(Date.now() + MEMBER_LIMITS.codeLifetimeSeconds * 1000),
        }),
      );
      void sendCode(customer ? mobile : undefined, code).catch(() =>
        deps.log.warn('members: sign-in code not sent'),
      );
      return { expiresInSeconds: MEMBER_LIMITS.codeLifetimeSeconds };
    },

    /**
     * Checks a code against the number's live code, in constant time; a wrong one counts a try
     * (the fifth ends the code), a right one ends it and opens a session. Every failure has the
     * same answer, customer or not. Every check from the address counts first, so one address
     * cannot try five codes on each of many numbers, even all at once.
     */
    async verifyCode(mobile: string, code: string, address: string) {
      if (
        (await deps.counters.checksPerAddress.count(address)).current >
        MEMBER_LIMITS.codeChecksPerHourPerAddress
      )
        throw new TooManyRequestsError(MEMBER_MESSAGES.tooManyChecks);
      const mobileHash = deps.mobileHash(mobile);
      const outcome = await db.transaction(async (tx) => {
        const live = await membersRepo.liveCodeForUpdate(tx, mobileHash, MEMBER_LIMITS.codeTries);
        if (!live) return undefined;
        const given = Buffer.from(hashOfCode(mobileHash, code), 'hex');
        const stored = Buffer.from(live.codeHash, 'hex');
        const right = given.length === stored.length && timingSafeEqual(given, stored);
        // A code recorded for a number that was no customer's was never sent: it opens
        // nothing, and a try on it counts as a wrong one, the same work as for a customer.
        if (!right || live.customerId === null) {
          await membersRepo.countWrongTry(tx, live.id);
          return { wrong: true as const, triesLeft: MEMBER_LIMITS.codeTries - live.tries - 1 };
        }
        await membersRepo.useCode(tx, live.id);
        const jti = randomUUID();
        await membersRepo.insertSession(tx, {
          jti,
          customerId: live.customerId,
          expiresAt: new Date(Date.now() + MEMBER_LIMITS.sessionLifetimeSeconds * 1000),
        });
        await recordAudit(tx, {
          userId: null,
          action: 'member.signIn',
          entity: 'customer',
          entityId: live.customerId,
          detail: { by: 'the customer' },
        });
        return { wrong: false as const, customerId: live.customerId, jti };
      });
      if (!outcome) throw new UnauthorizedError(MEMBER_MESSAGES.wrongCode);
      // Tries left are told alike for a customer's number and a stranger's: both rows count them.
      if (outcome.wrong)
        throw new UnauthorizedError(
          outcome.triesLeft > 0
            ? MEMBER_MESSAGES.wrongCodeTriesLeft(outcome.triesLeft)
            : MEMBER_MESSAGES.wrongCode,
        );
      return { customerId: outcome.customerId, jti: outcome.jti };
    },

    findSession: (jti: string) => membersRepo.sessionCustomer(db, jti),

    /**
     * The daily purge of what no longer serves: dead codes and sessions, old webhook delivery
     * ids. One transaction, so a run killed midway deletes nothing, and a second run finds
     * nothing more to delete.
     */
    purgeExpired(now = new Date()) {
      const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
      return db.transaction((tx) =>
        membersRepo.purge(tx, {
          codesBefore: daysAgo(MEMBER_LIMITS.keepDeadCodesAndSessionsDays),
          sessionsBefore: daysAgo(MEMBER_LIMITS.keepDeadCodesAndSessionsDays),
          eventsBefore: daysAgo(MEMBER_LIMITS.keepGatewayEventsDays),
        }),
      );
    },

    async signOut(customerId: number, jti: string) {
      await db.transaction(async (tx) => {
        await membersRepo.endSession(tx, jti);
        await recordAudit(tx, {
          userId: null,
          action: 'member.signOut',
          entity: 'customer',
          entityId: customerId,
          detail: { by: 'the customer' },
        });
      });
    },

    async me(customerId: number) {
      return db.transaction(
        async (tx) => {
          const customer = (await customers.findById(tx, customerId))!;
          const [{ tier, lots, ...summary }, rows, consents] = [
            await deps.points.homeOf(tx, customerId, customer.pointsBalance, today()),
            await membersRepo.schemesOf(tx, customerId),
            // In the read's own transaction: a second connection asked for while this one is
            // held would starve the pool when as many customers look at once.
            toConsents(await customers.consentHistory(tx, customerId)),
          ];
          const list = new Map<number, { scheme: Scheme; plan: Plan; paid: Installment[] }>();
          for (const { scheme, plan, installment } of rows) {
            const entry = list.get(scheme.id) ?? { scheme, plan: plan ?? undefined, paid: [] };
            list.set(scheme.id, entry);
            if (installment) entry.paid.push(installment);
          }
          return {
            custname: cleanName(customer.custname),
            mobile: customer.mobileno ?? '',
            points: {
              balance: customer.pointsBalance,
              value: summary.pointsValue,
              expiringIn30Days: summary.pointsExpiringIn30Days,
              lots,
            },
            // Only once tiers are set, as at the counter.
            ...(tier ? { tier } : {}),
            schemes: [...list.values()].map(({ scheme, plan, paid }) => {
              const mg = paid.reduce((sum, installment) => sum + (installment.mg ?? 0), 0);
              return {
                ...schemeOf(
                  scheme,
                  paid.map((installment) => installment.period),
                  graceDaysOf(plan),
                ),
                // The standard scheme has no plan; a weight plan's gold is in grams.
                ...(plan ? { plan: { code: plan.code, name: plan.name, kind: plan.kind } } : {}),
                ...(plan?.kind === 'weight' ? { grams: mg / 1000 } : {}),
                ...(scheme.status === SCHEME_STATUS.active
                  ? { maturity: deps.maturity.maturityForecast(scheme, plan, paid) }
                  : {}),
              };
            }),
            consents: consents.consents,
          };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },

    async points(customerId: number, page: number) {
      const size = MEMBER_LIMITS.pointsPageSize;
      const { rows, total } = await membersRepo.ledgerPage(db, customerId, size, (page - 1) * size);
      return {
        rows: rows.map((row) => ({
          date: row.date,
          kind: KIND_OF_SOURCE[row.ts as keyof typeof KIND_OF_SOURCE] ?? 'Adjustment',
          points: Number(row.credit) - Number(row.debit),
          balance: Number(row.balance),
          invoiceNo: row.invoice_no,
          branch: row.branch,
        })),
        total,
      };
    },

    /** The scheme's passbook; another customer's scheme is unknown (404), like none at all. */
    async passbook(customerId: number, schemeid: number) {
      const scheme = await schemes.find(db, schemeid);
      if (!scheme || scheme.customerId !== customerId || scheme.status === 'x')
        throw new NotFoundError(MESSAGES.schemeNotFound);
      const [installments, graceDays] = await Promise.all([
        schemes.installments(db, scheme.id),
        schemes.graceDays(db, scheme.planId),
      ]);
      return {
        scheme: schemeOf(
          scheme,
          installments.map((installment) => installment.period),
          graceDays,
        ),
        rows: installments.map((installment, i) => ({
          no: installmentNumber(i),
          date: installment.paidOn,
          amount: installment.amount,
          mode: installment.mode as InstallmentMode,
          receiptNo: installment.receipt,
          forMonth: installment.period,
          // The gateway's payment id, which the customer's bank statement and Razorpay's
          // receipt name; a counter payment's reference is the staff's.
          ...(installment.mode === 'online' ? { paymentId: installment.reference } : {}),
          ...(installment.mg === null || installment.rate22kPaise === null
            ? {}
            : { rate: installment.rate22kPaise / 100, grams: installment.mg / 1000 }),
        })),
      };
    },

    /** The customer's own choice, recorded as given by them; the same choice again adds nothing. */
    async consent(customerId: number, purpose: ConsentPurpose, granted: boolean) {
      const now = await deps.consents.consents(customerId);
      if (now.consents[purpose] === granted) return now.consents;
      const after = await deps.consents.recordConsent(
        null,
        { custid: customerId, purpose, granted },
        CONSENT_METHODS.customer,
      );
      return after.consents;
    },

    /** The staff's export of the customer, without staff names and internal narrations. */
    async dataExport(customerId: number): Promise<MemberDataExport> {
      const copy = await deps.dataRights.dataExport(customerId);
      return {
        ...copy,
        consentHistory: copy.consentHistory.map(({ recordedBy: _staff, ...event }) => event),
        pointsLedger: copy.pointsLedger.map(({ narration: _internal, ...entry }) => entry),
        schemes: copy.schemes.map((scheme) => ({
          ...scheme,
          installments: scheme.installments.map(({ narration: _internal, ...row }) => row),
        })),
      };
    },
  };
}
