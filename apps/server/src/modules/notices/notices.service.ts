import {
  DEFAULT_NOTICE_TEXTS,
  LIMITS,
  NOTICE_EVENTS,
  NOTICE_MESSAGES,
  type NoticeEntry,
  type NoticeEvent,
  type NoticeTemplate,
  type TestMessageResult,
} from '@kanak/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { assertOwnBranch, type BranchStaff } from '../../lib/branch-scope.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import type { MessagingService } from '../messaging/index.js';
import { templatesOf } from './notices.outbox.js';
import { noticesRepo, type LogRow, type NoticeFilters } from './notices.repo.js';
import { sendWhatsApp, type PanelUrls } from './providers.js';

export type NoticesService = ReturnType<typeof createNoticesService>;

interface Deps {
  db: Db;
  timeZone: string;
  /** The saved panel with its token readable (the messaging module's). */
  panel: Pick<MessagingService, 'get'>;
  urls: PanelUrls;
  /** The shop's name as its settings hold it now. */
  shop: () => Promise<string>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Tells the sender there is work. */
  nudge?: () => void;
}

const toTemplate = (
  event: NoticeEvent,
  setting: { enabled: boolean; text: string },
): NoticeTemplate => ({
  event,
  enabled: setting.enabled,
  text: setting.text,
  isDefault: setting.text === DEFAULT_NOTICE_TEXTS[event],
});

const toEntry = (row: LogRow): NoticeEntry => ({ ...row, event: row.event as NoticeEvent });

/** Message Templates, the Delivery Log and its resend, and Message Configuration's test. */
export function createNoticesService({ db, timeZone, panel, urls, shop, log, nudge }: Deps) {
  return {
    /** Every event's template, in the contract's order. */
    async templates(): Promise<NoticeTemplate[]> {
      const current = await templatesOf(db);
      return NOTICE_EVENTS.map((event) => toTemplate(event, current[event]));
    },

    /** One event's switch and text; audited with what changed. */
    async saveTemplate(
      actor: StaffIdentity,
      form: { event: NoticeEvent; enabled: boolean; text: string },
    ): Promise<NoticeTemplate> {
      return db.transaction(async (tx) => {
        const saved = await noticesRepo.findTemplate(tx, form.event, { forUpdate: true });
        const before = saved ?? { enabled: true, text: DEFAULT_NOTICE_TEXTS[form.event] };
        const after = await noticesRepo.saveTemplate(tx, { ...form, updatedBy: actor.id });
        const changed = (['enabled', 'text'] as const).filter(
          (field) => before[field] !== after[field],
        );
        await recordAudit(tx, {
          userId: actor.id,
          action: 'noticeTemplate.save',
          entity: 'notice_template',
          entityId: form.event,
          before: Object.fromEntries(changed.map((field) => [field, before[field]])),
          after: Object.fromEntries(changed.map((field) => [field, after[field]])),
        });
        return toTemplate(form.event, after);
      });
    },

    /** One page of the Delivery Log, newest first, and how many match (up to the cap). */
    async page(filters: NoticeFilters, page: number) {
      const size = LIMITS.noticesPageSize;
      const { rows, total } = await noticesRepo.page(db, filters, timeZone, {
        limit: size,
        offset: (page - 1) * size,
        cap: LIMITS.noticesCountCap,
      });
      return { data: rows.map(toEntry), total };
    },

    /** One notice as the log shows it: a repeated resend reads it afresh. */
    async entry(id: number): Promise<NoticeEntry> {
      const entry = await noticesRepo.findForLog(db, id);
      if (!entry) throw new NotFoundError(NOTICE_MESSAGES.noSuchNotice(id));
      return toEntry(entry);
    },

    /**
     * A failed notice queued again, its attempts from zero; audited. A manager resends their
     * own branch's notices only.
     */
    async resend(actor: StaffIdentity & BranchStaff, id: number): Promise<NoticeEntry> {
      const entry = await db.transaction(async (tx) => {
        const notice = await noticesRepo.findForUpdate(tx, id);
        if (!notice) throw new NotFoundError(NOTICE_MESSAGES.noSuchNotice(id));
        assertOwnBranch(actor, notice.branchId);
        if (notice.status !== 'failed') throw new ConflictError(NOTICE_MESSAGES.onlyFailedResent);
        await noticesRepo.requeue(tx, id);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'notice.resend',
          entity: 'notice',
          entityId: id,
          before: { status: notice.status, attempts: notice.attempts, reason: notice.reason },
          after: { status: 'queued', attempts: 0 },
          mobile: notice.mobile,
        });
        return (await noticesRepo.findForLog(tx, id))!;
      });
      nudge?.();
      return toEntry(entry);
    },

    /**
     * One message to the saved Phone, sent now through the saved panel's provider, whatever
     * the templates say: the owner sees at once whether the settings work. Nothing is stored.
     */
    async testMessage(): Promise<TestMessageResult> {
      const config = await panel.get();
      if (config.panel === '') throw new ConflictError(NOTICE_MESSAGES.panelNotConfigured);
      const result = await sendWhatsApp(
        { panel: config.panel, instanceId: config.instanceid, token: config.token },
        urls,
        config.phone,
        NOTICE_MESSAGES.testMessageText(await shop()),
        { timeoutMs: LIMITS.noticeSendTimeoutMs },
      );
      const answer = result.sent ? NOTICE_MESSAGES.providerAccepted : result.reason;
      log.info(
        { panel: config.panel, sent: result.sent, status: result.status, answer },
        'notices: test message',
      );
      return { sent: result.sent, status: result.status, answer };
    },
  };
}
