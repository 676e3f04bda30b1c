import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  cleanName,
  CONSENT_METHODS,
  LIMITS,
  MEMBER_LIMITS,
  MEMBER_MESSAGES,
  MESSAGES,
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
import type { SchemesRepo } from '../schemes/index.js';
import { membersRepo } from './members.repo.js';

export type MembersService = ReturnType<typeof createMembersService>;

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
  schemes: Pick<SchemesRepo, 'listForCustomer' | 'find' | 'installments'>;
  /** The messaging panel the code is sent through, and its providers' addresses. */
  panel: Pick<MessagingService, 'get'>;
  panelUrls: Parameters<typeof sendWhatsApp>[1];
  shop: string;
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
    if (mobile === undefined) return;
    if (config.panel === '') {
      deps.log.warn('members: no messaging panel is set up; the sign-in code was not sent');
      return;
    }
    const result = await sendWhatsApp(
      { panel: config.panel, instanceId: config.instanceid, token: config.token },
      deps.panelUrls,
      mobile,
      MEMBER_MESSAGES.codeText(code, deps.shop),
      { timeoutMs: LIMITS.noticeSendTimeoutMs },
    );
    if (!result.sent) deps.log.warn({ status: result.status }, 'members: sign-in code not sent');
  };

  const schemeOf = (scheme: Awaited<ReturnType<SchemesRepo['find']>> & object, paid: number) => ({
    schemeid: scheme.id,
    startdt: scheme.startdt,
    matdt: scheme.matdt,
    amount: scheme.amount,
    paid,
    installments: scheme.installments,
    nextDue: scheme.nextDue,
    status: scheme.status,
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
          const [{ tier, lots, ...summary }, list, plans, consents] = [
            await deps.points.homeOf(tx, customerId, customer.pointsBalance, today()),
            await schemes.listForCustomer(tx, customerId),
            new Map(
              (await membersRepo.schemePlansOf(tx, customerId)).map((plan) => [
                plan.schemeId,
                plan,
              ]),
            ),
            // In the read's own transaction: a second connection asked for while this one is
            // held would starve the pool when as many customers look at once.
            toConsents(await customers.consentHistory(tx, customerId)),
          ];
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
            schemes: list.map(({ scheme, paid }) => {
              const plan = plans.get(scheme.id);
              return {
                ...schemeOf(scheme, paid),
                // The standard scheme has no plan; a weight plan's gold is in grams.
                ...(plan ? { plan: { code: plan.code, name: plan.name, kind: plan.kind } } : {}),
                ...(plan?.kind === 'weight' ? { grams: plan.mg / 1000 } : {}),
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
      const installments = await schemes.installments(db, scheme.id);
      return {
        scheme: schemeOf(scheme, installments.length),
        rows: installments.map((installment, i) => ({
          no: i + 1,
          date: installment.paidOn,
          amount: installment.amount,
          mode: installment.mode as InstallmentMode,
          receiptNo: installment.receipt,
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
