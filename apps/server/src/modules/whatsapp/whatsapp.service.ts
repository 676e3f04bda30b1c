import { timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CONSENT_METHODS, WHATSAPP_MESSAGES, type WhatsAppTemplate } from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { hmacSha256Matches } from '../../lib/crypto.js';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../lib/errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import type { CustomersRepo, CustomersService } from '../customers/index.js';
import type { MessagingService } from '../messaging/index.js';
import { GraphError, TEMPLATES_MAX, type GraphClient } from './graph.js';
import { whatsappRepo } from './whatsapp.repo.js';
import { webhookEvent, type WebhookEvent } from './whatsapp.webhook.js';

/**
 * The provider's later word on a message it took, recorded on its notice (the notices
 * module's repo implements it): true when the notice changed.
 */
export type RecordDelivery = (
  tx: Tx,
  report: {
    providerMessageId: string;
    status: 'delivered' | 'read' | 'failed';
    at: Date;
    reason?: string;
  },
) => Promise<boolean>;

interface Deps {
  db: Db;
  messaging: Pick<MessagingService, 'official'>;
  graph: GraphClient;
  customers: Pick<CustomersRepo, 'findByMobile'>;
  consents: Pick<CustomersService, 'recordConsent'>;
  recordDelivery: RecordDelivery;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

export type WhatsAppService = ReturnType<typeof createWhatsAppService>;

/** What a customer sends to stop the shop's marketing messages. */
const STOP = 'STOP';

/** The official panel (Panel 4): its templates as Meta holds them, and Meta's webhook. */
export function createWhatsAppService({ db, messaging, graph, log, ...deps }: Deps) {
  const officialOrRefuse = async () => {
    const official = await messaging.official();
    if (!official) throw new ConflictError(WHATSAPP_MESSAGES.notSetUp);
    return official;
  };

  /** A STOP from a customer's number withdraws their marketing consent, once. */
  async function stopFrom(from: string) {
    const mobile = /^(?:91)?(\d{10})$/.exec(from)?.[1];
    const customer = mobile ? await deps.customers.findByMobile(db, mobile) : undefined;
    if (!customer || customer.erasedAt) return;
    await deps.consents.recordConsent(
      null,
      { custid: customer.id, purpose: 'marketing', granted: false },
      CONSENT_METHODS.whatsapp,
      true,
    );
    log.info({ customer: customer.id }, 'whatsapp: STOP from a customer; marketing consent off');
  }

  return {
    /** The templates held, as the last sync found them. */
    templates: (): Promise<WhatsAppTemplate[]> => whatsappRepo.templates(db),

    /**
     * Reads every template of the business account from Meta and replaces those held with
     * them, in one change, audited. Nothing changes when Meta cannot be read through.
     */
    async sync(actor: StaffIdentity): Promise<WhatsAppTemplate[]> {
      const official = await officialOrRefuse();
      let listed: WhatsAppTemplate[];
      try {
        listed = await graph.templates(official.businessAccountId, official.accessToken);
      } catch (error) {
        throw refusalOf(error);
      }
      // One row a name and language: a template listed twice is the later listing.
      const templates = [
        ...new Map(
          listed.map((template) => [`${template.name}\n${template.language}`, template]),
        ).values(),
      ];
      await db.transaction(async (tx) => {
        await whatsappRepo.replaceTemplates(tx, templates);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'whatsapp.templatesSync',
          entity: 'panel_config',
          entityId: 1,
          after: { templates: templates.length },
        });
      });
      return whatsappRepo.templates(db);
    },

    /**
     * Meta's handshake when the webhook is added: the challenge back when the verify token is
     * the one Message Configuration shows, else refused.
     */
    async handshake(query: {
      'hub.mode'?: string | undefined;
      'hub.verify_token'?: string | undefined;
      'hub.challenge'?: string | undefined;
    }): Promise<string> {
      const official = await messaging.official();
      const given = Buffer.from(query['hub.verify_token'] ?? '');
      const expected = Buffer.from(official?.webhookVerifyToken ?? '');
      const matches =
        expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
      if (!matches || query['hub.mode'] !== 'subscribe' || !query['hub.challenge'])
        throw new ForbiddenError(WHATSAPP_MESSAGES.webhookTokenWrong);
      return query['hub.challenge'];
    },

    /**
     * An event from Meta: its signature (HMAC-SHA256 of the body as sent, under the app
     * secret) is checked before the body is read at all. Statuses go on their notices; a STOP
     * from a customer withdraws their marketing consent.
     */
    async event(raw: Buffer, signature: string | undefined): Promise<void> {
      const official = await messaging.official();
      const hex = /^sha256=([0-9a-fA-F]{64})$/.exec(signature ?? '')?.[1];
      if (!official || !hex || !hmacSha256Matches(raw, official.appSecret, hex))
        throw new UnauthorizedError(WHATSAPP_MESSAGES.webhookUnsigned);
      let event: WebhookEvent;
      try {
        event = webhookEvent.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        throw new InvalidInputError(WHATSAPP_MESSAGES.webhookUnreadable);
      }
      const values = event.entry.flatMap((entry) => entry.changes.map((change) => change.value));
      await db.transaction(async (tx) => {
        for (const status of values.flatMap((value) => value.statuses ?? [])) {
          if (
            status.status !== 'delivered' &&
            status.status !== 'read' &&
            status.status !== 'failed'
          )
            continue;
          const error = status.errors?.[0];
          await deps.recordDelivery(tx, {
            providerMessageId: status.id,
            status: status.status,
            at: new Date(Number(status.timestamp) * 1000),
            ...(status.status === 'failed'
              ? {
                  reason: WHATSAPP_MESSAGES.notDelivered(
                    error?.error_data?.details ?? error?.title ?? error?.message ?? '',
                    error?.code ?? null,
                  ),
                }
              : {}),
          });
        }
      });
      for (const message of values.flatMap((value) => value.messages ?? [])) {
        const said =
          message.text?.body ??
          message.button?.payload ??
          message.button?.text ??
          message.interactive?.button_reply?.id ??
          message.interactive?.button_reply?.title;
        if (message.from && said?.trim().toUpperCase() === STOP) await stopFrom(message.from);
      }
    },
  };
}

/** A failed call to Meta, in the owner's words; nothing was changed. */
function refusalOf(error: unknown): Error {
  if (!(error instanceof GraphError)) return error as Error;
  switch (error.failure) {
    case 'tokenInvalid':
      return new ConflictError(WHATSAPP_MESSAGES.tokenInvalid);
    case 'throttled':
      return new TooManyRequestsError(WHATSAPP_MESSAGES.busy);
    case 'refused':
      return new ConflictError(WHATSAPP_MESSAGES.refused(error.reason || `#${error.code ?? '?'}`));
    case 'tooMany':
      return new ConflictError(WHATSAPP_MESSAGES.tooMany(TEMPLATES_MAX));
    case 'unreachable':
      return new AppError(502, WHATSAPP_MESSAGES.unreachable);
    case 'unreadable':
      return new AppError(502, WHATSAPP_MESSAGES.unreadable);
  }
}
