import {
  pointsWorthPaise,
  rupeesOfPaise,
  cleanName,
  DEFAULT_NOTICE_TEXTS,
  formatRupees,
  formatSlashDate,
  LIMITS,
  NOTICE_MESSAGES,
  NOTICE_TIMING,
  renderNotice,
  type NoticeEvent,
} from '@kanak/contract';
import { afterCommit } from '../../db/after-commit.js';
import type { Tx } from '../../db/client.js';
import { nextStoreHours } from '../../lib/dates.js';
import type { NoticeQueue, NoticeRequest, QueuedNotices } from '../../lib/notice-queue.js';
import type { BranchesRepo } from '../branches/index.js';
import type { CustomersRepo } from '../customers/index.js';
import type { MessagingRepo } from '../messaging/index.js';
import type { PointsSummaryReader } from '../points/index.js';
import { noticesRepo, type NewNotice } from './notices.repo.js';

/** The events whose text may speak of the points balance and its worth. */
const POINTS_EVENTS = new Set<NoticeEvent>([
  'pointsEarned',
  'pointsRedeemed',
  'pointsAdjusted',
  'pointsExpiring',
]);

export interface TemplateSetting {
  enabled: boolean;
  text: string;
}

/** Every event's template: the owner's where saved, else the default text, switched on. */
export async function templatesOf(tx: Tx): Promise<Record<NoticeEvent, TemplateSetting>> {
  const saved = new Map((await noticesRepo.templates(tx)).map((row) => [row.event, row]));
  return Object.fromEntries(
    (Object.keys(DEFAULT_NOTICE_TEXTS) as NoticeEvent[]).map((event) => [
      event,
      saved.get(event) ?? { enabled: true, text: DEFAULT_NOTICE_TEXTS[event] },
    ]),
  ) as Record<NoticeEvent, TemplateSetting>;
}

/**
 * Why a notice may not go, if it may not: its kind is switched off, the customer has not
 * consented to transactional notices (or withdrew), has no mobile number (erased), or no
 * messaging panel is saved. Asked when it is queued and again when it is sent.
 */
export function whyNotSent(
  template: TemplateSetting,
  recipient: { consented: boolean; mobile: string | null } | undefined,
  panelSaved: boolean,
): string | undefined {
  if (!template.enabled) return NOTICE_MESSAGES.skippedEventOff;
  if (!recipient?.consented) return NOTICE_MESSAGES.skippedNoConsent;
  if (!recipient.mobile) return NOTICE_MESSAGES.skippedNoMobile;
  if (!panelSaved) return NOTICE_MESSAGES.skippedNoPanel;
  return undefined;
}

/**
 * A queued notice's text as it may go now. The text is rendered when the notice is queued, so
 * one queued (or failed, then resent) before names were kept to one line holds the customer's
 * stored name as it was: it goes with the name as it is sent today.
 */
export function withCleanName(text: string, storedName: string): string {
  const clean = cleanName(storedName);
  return storedName === '' || clean === storedName ? text : text.replaceAll(storedName, clean);
}

/** Rupees as a message shows them after its ₹: Indian grouping, 1,23,456. */
const rupees = (amount: number) => formatRupees(amount).replace('₹', '');

interface Deps {
  customers: Pick<CustomersRepo, 'noticeRecipients'>;
  branches: Pick<BranchesRepo, 'findByIds'>;
  panel: Pick<MessagingRepo, 'find'>;
  points: Pick<PointsSummaryReader, 'pointValuePaise'>;
  /** The shop's name ({shop}) as its settings hold it now, read in the queueing transaction. */
  shop: (tx: Tx) => Promise<string>;
  timeZone: string;
  clock?: () => Date;
  /** Tells the sender there is work (it may be in another process); after the commit. */
  nudge?: () => void;
}

/** The notice queue the changes are handed, and the reminders' queueing of many at once. */
export type NoticesOutbox = NoticeQueue;

/**
 * The outbox of notices to customers. A service queues a notice inside the transaction of the
 * change it tells of: the row commits or rolls back with the change, so no customer hears of a
 * sale that was refused, and none goes unheard of one that was made. The text is rendered now,
 * from the template of the moment; a notice that may not go is written `skipped` with why.
 * Reminders and digests wait for the store's day hours.
 */
export function createNoticesOutbox(deps: Deps): NoticesOutbox {
  const now = () => deps.clock?.() ?? new Date();

  /**
   * Queues the notices (those whose dedupe key is taken are left out); answers how many rows
   * were written and how many of them wait to be sent.
   */
  async function queueMany(tx: Tx, requests: NoticeRequest[]): Promise<QueuedNotices> {
    if (requests.length === 0) return { written: 0, queued: 0 };
    const templates = await templatesOf(tx);
    const recipients = new Map(
      (
        await deps.customers.noticeRecipients(tx, [...new Set(requests.map((r) => r.customerId))])
      ).map((recipient) => [recipient.id, recipient]),
    );
    const branchIds = [...new Set(requests.flatMap((r) => (r.branchId ? [r.branchId] : [])))];
    const branchNames = new Map(
      (await deps.branches.findByIds(tx, branchIds)).map((branch) => [branch.id, branch.name]),
    );
    const panelSaved = (await deps.panel.find(tx)) !== undefined;
    const shop = await deps.shop(tx);
    const pointValuePaise = requests.some((r) => POINTS_EVENTS.has(r.event))
      ? await deps.points.pointValuePaise(tx)
      : 0;
    // Reminders queued outside the store's hours wait for the morning.
    const daytime = nextStoreHours(
      deps.timeZone,
      now(),
      LIMITS.noticeDayStartHour,
      LIMITS.noticeDayEndHour,
    );
    const laterToday = daytime.getTime() !== now().getTime();

    const rows = requests.map((request): NewNotice => {
      const template = templates[request.event];
      const recipient = recipients.get(request.customerId);
      const { facts } = request;
      const balance = recipient?.balance ?? 0;
      const text = renderNotice(template.text, {
        // A name stored before names were kept to one line: never a message of its own.
        name: cleanName(recipient?.name ?? ''),
        points: facts.points,
        balance,
        value: rupees(rupeesOfPaise(pointsWorthPaise(balance, pointValuePaise))),
        amount: facts.amount === undefined ? undefined : rupees(facts.amount),
        receipt: facts.receipt,
        paid: facts.paid,
        total: facts.total,
        dueDate: facts.dueDate === undefined ? undefined : formatSlashDate(facts.dueDate),
        shop,
        branch: (request.branchId && branchNames.get(request.branchId)) || '',
        tier: facts.tier,
      });
      const reason = whyNotSent(template, recipient, panelSaved);
      return {
        event: request.event,
        customerId: request.customerId,
        branchId: request.branchId,
        mobile: recipient?.mobile ?? null,
        text,
        status: reason ? 'skipped' : 'queued',
        reason: reason ?? null,
        dedupeKey: request.dedupeKey ?? null,
        ...(!reason && NOTICE_TIMING[request.event] === 'daytime' && laterToday
          ? { notBefore: daytime }
          : {}),
      };
    });
    const written = await noticesRepo.insertMany(tx, rows);
    const queued = written.filter((row) => row.status === 'queued').length;
    // Told once the change commits: a sender woken sooner would find nothing yet.
    if (queued > 0 && deps.nudge) afterCommit(tx, deps.nudge);
    return { written: written.length, queued };
  }

  return {
    queue: (tx, request) => queueMany(tx, [request]),
    queueMany,
  };
}
