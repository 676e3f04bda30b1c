import { setTimeout as sleep } from 'node:timers/promises';
import { LIMITS, NOTICE_MESSAGES, type NoticeEvent } from '@kanak/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { CustomersRepo } from '../customers/index.js';
import type { MessagingService } from '../messaging/index.js';
import { templatesOf, whyNotSent, withCleanName, type TemplateSetting } from './notices.outbox.js';
import { noticesRepo, type Claim } from './notices.repo.js';
import { sendWhatsApp, type PanelSettings, type PanelUrls } from './providers.js';

export interface SenderOptions {
  db: Db;
  /** The saved panel with its token readable (the messaging module's). */
  panel: Pick<MessagingService, 'get' | 'officialSaved'>;
  customers: Pick<CustomersRepo, 'noticeRecipients'>;
  urls: PanelUrls;
  /** Messages a second, at most. */
  rate: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** How long a claim keeps other senders off a notice: longer than any one send takes. */
  leaseSeconds?: number;
  /** A provider that has not answered in this long has failed the attempt. */
  timeoutMs?: number;
  /** A run ends after this long (the next run carries on), so a stop never waits long. */
  runSeconds?: number;
  /** The wait after a first failed attempt; each further failure doubles it. */
  retryFirstDelaySeconds?: number;
}

export interface RunResult {
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
  /** Notices are still due: another run should follow, after this many seconds. */
  more: boolean;
  resumeAfterSeconds: number;
}

/** The panel and templates in force, read again this often during a run. */
const SETTINGS_MAX_AGE_MS = 5_000;
/** Senders running side by side within one run, for rates beyond what one can keep up with. */
const MAX_LANES = 8;
/** Messages a second one lane keeps up with comfortably (a claim, a send, a mark). */
const RATE_PER_LANE = 25;

/** A run waits this long for a slot at most, so a stop never waits behind a long pause. */
const LONGEST_WAIT_IN_RUN_MS = 5_000;

/**
 * Hands out sending slots `1 / rate` seconds apart, for every lane of every run of this
 * sender; a provider's "too many requests" holds them all until it says.
 */
function createPacer(rate: number) {
  const interval = 1000 / rate;
  let next = 0;
  return {
    /**
     * Waits for the next slot; false if that slot is after `until`, or further off than a run
     * waits (a provider's long Retry-After: the run ends, and the next starts when it is due).
     */
    async turn(until: number) {
      const now = Date.now();
      const at = Math.max(now, next);
      if (at > until || at - now > LONGEST_WAIT_IN_RUN_MS) return false;
      next = at + interval;
      if (at > now) await sleep(at - now);
      return true;
    },
    holdUntil(moment: number) {
      next = Math.max(next, moment);
    },
    /** Seconds until the next slot. */
    waitSeconds: () => Math.max(0, Math.ceil((next - Date.now()) / 1000)),
  };
}

/**
 * The sender of queued notices. A run claims one due notice at a time (see claimNext: two
 * senders, in this process or another, never hold the same row), checks that it may still go
 * (the kind switched on, the customer's consent, a mobile number, a saved panel; else it is
 * skipped with why), sends it through the provider at no more than `rate` a second, and marks
 * it sent while the claim is still its own. A failed attempt is queued again after a wait that
 * doubles each time (or the provider's Retry-After), until the last allowed attempt fails: then
 * `failed`, with the provider's reason.
 *
 * A sender killed between the provider's answer and its mark leaves the row queued and
 * claimed; once the claim lapses, another run sends it again. So a crash can send one notice
 * twice, never lose one.
 */
export function createNoticeSender(options: SenderOptions) {
  const { db, log } = options;
  const timeoutMs = options.timeoutMs ?? LIMITS.noticeSendTimeoutMs;
  const leaseSeconds = options.leaseSeconds ?? Math.ceil(timeoutMs / 1000) + 20;
  const runMs = (options.runSeconds ?? 50) * 1000;
  const firstDelay = options.retryFirstDelaySeconds ?? LIMITS.noticeRetryFirstDelaySeconds;
  const lanes = Math.min(MAX_LANES, Math.max(1, Math.ceil(options.rate / RATE_PER_LANE)));
  const pacer = createPacer(options.rate);
  let stopping = false;

  interface Settings {
    panel: PanelSettings | undefined;
    templates: Record<NoticeEvent, TemplateSetting>;
    readAt: number;
  }
  let settings: Settings | undefined;
  async function currentSettings() {
    if (settings && Date.now() - settings.readAt < SETTINGS_MAX_AGE_MS) return settings;
    const config = await options.panel.get();
    settings = {
      panel:
        config.panel === ''
          ? undefined
          : { panel: config.panel, instanceId: config.instanceid, token: config.token },
      templates: await templatesOf(db),
      readAt: Date.now(),
    };
    return settings;
  }

  async function deliver(
    notice: NonNullable<Awaited<ReturnType<typeof noticesRepo.claimNext>>>,
    counts: Omit<RunResult, 'more' | 'resumeAfterSeconds'>,
  ) {
    const claim: Claim = { id: notice.id, attempts: notice.attempts };
    const { panel, templates } = await currentSettings();
    // Consent withdrawn, the customer erased, the kind switched off since it was queued: the
    // notice does not go.
    const [recipient] = await options.customers.noticeRecipients(db, [notice.customerId]);
    const why = whyNotSent(templates[notice.event as NoticeEvent], recipient, !!panel);
    if (why || !panel || !notice.mobile) {
      await noticesRepo.markUnsent(db, claim, 'skipped', why ?? NOTICE_MESSAGES.skippedNoMobile);
      counts.skipped++;
      return;
    }
    const text = withCleanName(notice.text, recipient?.name ?? '');
    const result = await sendWhatsApp(panel, options.urls, notice.mobile, text, { timeoutMs });
    if (result.sent) {
      if (!(await noticesRepo.markSent(db, claim, result.messageId)))
        log.warn({ notice: notice.id }, 'notices: sent after its claim had lapsed');
      counts.sent++;
      return;
    }
    if (result.retryAfterSeconds !== undefined)
      pacer.holdUntil(Date.now() + result.retryAfterSeconds * 1000);
    log.info(
      { notice: notice.id, attempt: notice.attempts, status: result.status, reason: result.reason },
      'notices: not sent',
    );
    if (notice.attempts >= LIMITS.noticeMaxAttempts) {
      await noticesRepo.markUnsent(db, claim, 'failed', result.reason);
      counts.failed++;
      return;
    }
    const delay = result.retryAfterSeconds ?? firstDelay * 2 ** (notice.attempts - 1);
    await noticesRepo.retryLater(db, claim, result.reason, delay);
    counts.retried++;
  }

  return {
    /**
     * Sends due notices until none is due, the run's time is up or the sender is stopped.
     * Answers what it did and whether notices are still due.
     */
    async run(): Promise<RunResult> {
      const until = Date.now() + runMs;
      const counts = { sent: 0, retried: 0, failed: 0, skipped: 0 };
      // Nothing is claimed, so each waiting notice keeps its attempts for the panel that sends.
      if (await options.panel.officialSaved())
        return { ...counts, more: false, resumeAfterSeconds: 0 };
      let drained = false;
      // The first error (the database gone) ends every lane: the run fails, the next retries.
      let failure: { error: unknown } | undefined;
      const lane = async () => {
        try {
          while (!stopping && !drained && !failure && (await pacer.turn(until))) {
            const notice = await noticesRepo.claimNext(db, leaseSeconds);
            if (!notice) {
              drained = true;
              return;
            }
            await deliver(notice, counts);
          }
        } catch (error) {
          failure ??= { error };
        }
      };
      await Promise.all(Array.from({ length: lanes }, lane));
      if (failure) throw failure.error;
      const more = !stopping && !drained && (await noticesRepo.anyDue(db));
      return { ...counts, more, resumeAfterSeconds: pacer.waitSeconds() };
    },

    /** No new claims: a run under way ends after the send in hand. */
    stop() {
      stopping = true;
    },
  };
}
