import { randomBytes } from 'node:crypto';
import {
  AUDIT_HIDDEN,
  EMPTY_PANEL_CONFIG,
  OFFICIAL_PANEL,
  SECRET_KEPT,
  WHATSAPP_MESSAGES,
  type GatewayPanelConfig,
  type PanelConfig,
  type PanelConfigForm,
  type WebhookSetup,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import type { FieldCipher } from '../../lib/crypto.js';
import { ConflictError, InvalidInputError } from '../../lib/errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import { messagingRepo, type PanelConfigRow } from './messaging.repo.js';

export type MessagingService = ReturnType<typeof createMessagingService>;

/** The official panel's settings, its secrets readable: what a call to Meta needs. */
export interface OfficialPanel {
  phoneNumberId: string;
  accessToken: string;
  businessAccountId: string;
  appSecret: string;
  webhookVerifyToken: string;
}

interface Deps {
  db: Db;
  cipher: FieldCipher;
}

/** The fields a save may change, as the audit log names them. */
const FIELDS = ['instanceid', 'token', 'panel', 'phone', 'businessAccountId', 'appSecret'] as const;
type Field = (typeof FIELDS)[number];
const SECRETS: readonly Field[] = ['token', 'appSecret'];

export function createMessagingService({ db, cipher }: Deps) {
  const isOfficial = (row: PanelConfigRow) => row.panel === OFFICIAL_PANEL;
  const fieldsOf = (row: PanelConfigRow): Record<Field, unknown> => ({
    instanceid: row.instanceId,
    token: cipher.decrypt(row.tokenSealed),
    panel: row.panel,
    phone: row.phone,
    businessAccountId: row.businessAccountId ?? undefined,
    appSecret: row.appSecretSealed ? cipher.decrypt(row.appSecretSealed) : undefined,
  });
  const verifyTokenOf = (row: PanelConfigRow) =>
    row.webhookVerifyTokenSealed ? cipher.decrypt(row.webhookVerifyTokenSealed) : '';

  return {
    /**
     * The saved gateway panel (1 to 3) with its token readable, for a send; never saved: every
     * field ''. The official panel sends through another way, not ready yet: refused, so a
     * notice waits queued rather than going through a gateway or being dropped.
     */
    /**
     * Whether the saved panel is WhatsApp's official API, which the sender does not speak yet:
     * queued notices then wait, untouched, rather than spend their attempts on it.
     */
    async officialSaved(): Promise<boolean> {
      const row = await messagingRepo.find(db);
      return row !== undefined && isOfficial(row);
    },

    async get(): Promise<GatewayPanelConfig> {
      const row = await messagingRepo.find(db);
      if (!row) return { ...EMPTY_PANEL_CONFIG };
      if (isOfficial(row)) throw new ConflictError(WHATSAPP_MESSAGES.sendingNotReady);
      return {
        instanceid: row.instanceId,
        token: cipher.decrypt(row.tokenSealed),
        panel: row.panel as 1 | 2 | 3,
        phone: row.phone,
      };
    },

    /**
     * What Message Configuration shows: a gateway's token readable; the official panel's
     * access token and app secret never again, its webhook's verify token and address to copy.
     */
    async view(webhookUrl: string): Promise<PanelConfig> {
      const row = await messagingRepo.find(db);
      if (!row) return { ...EMPTY_PANEL_CONFIG };
      if (!isOfficial(row))
        return {
          instanceid: row.instanceId,
          token: cipher.decrypt(row.tokenSealed),
          panel: row.panel as 1 | 2 | 3,
          phone: row.phone,
        };
      return {
        instanceid: row.instanceId,
        token: SECRET_KEPT,
        panel: OFFICIAL_PANEL,
        phone: row.phone,
        businessAccountId: row.businessAccountId ?? '',
        appSecret: SECRET_KEPT,
        webhookVerifyToken: verifyTokenOf(row),
        webhookUrl,
      };
    },

    /** The official panel with its secrets readable; undefined unless it is the one saved. */
    async official(): Promise<OfficialPanel | undefined> {
      const row = await messagingRepo.find(db);
      if (!row || !isOfficial(row) || !row.businessAccountId || !row.appSecretSealed)
        return undefined;
      return {
        phoneNumberId: row.instanceId,
        accessToken: cipher.decrypt(row.tokenSealed),
        businessAccountId: row.businessAccountId,
        appSecret: cipher.decrypt(row.appSecretSealed),
        webhookVerifyToken: verifyTokenOf(row),
      };
    },

    /** The official panel's webhook settings to copy into Meta's dashboard; none for a gateway. */
    async webhookSetup(webhookUrl: string): Promise<WebhookSetup | undefined> {
      const row = await messagingRepo.find(db);
      return row && isOfficial(row)
        ? { webhookVerifyToken: verifyTokenOf(row), webhookUrl }
        : undefined;
    },

    /**
     * Saves the one configuration; tokens and secrets are sealed, and stay out of the audit
     * log. The official panel's SECRET_KEPT keeps what is saved; its webhook verify token is
     * made at its first save and kept after, so Meta's webhook need not be set up again.
     * Answers the official panel's webhook settings.
     */
    async save(
      actor: StaffIdentity,
      form: PanelConfigForm,
      webhookUrl: string,
    ): Promise<WebhookSetup | undefined> {
      return db.transaction(async (tx) => {
        const before = await messagingRepo.find(tx, { forUpdate: true });
        const previous = before ? fieldsOf(before) : undefined;
        const official = form.panel === OFFICIAL_PANEL ? form : undefined;
        const kept = (field: 'token' | 'appSecret', given: string) => {
          if (given !== SECRET_KEPT) return given;
          const saved = before && isOfficial(before) ? previous?.[field] : undefined;
          if (typeof saved !== 'string')
            throw new InvalidInputError(WHATSAPP_MESSAGES.secretsFirst);
          return saved;
        };
        const after: Record<Field, unknown> = {
          instanceid: form.instanceid,
          token: official ? kept('token', form.token) : form.token,
          panel: form.panel,
          phone: form.phone,
          businessAccountId: official?.businessAccountId,
          appSecret: official ? kept('appSecret', official.appSecret) : undefined,
        };
        const verifyToken =
          (before && verifyTokenOf(before)) || randomBytes(24).toString('base64url');
        await messagingRepo.upsert(tx, {
          instanceId: form.instanceid,
          tokenSealed: cipher.encrypt(after.token as string),
          panel: form.panel,
          phone: form.phone,
          businessAccountId: official ? official.businessAccountId : null,
          appSecretSealed: official ? cipher.encrypt(after.appSecret as string) : null,
          webhookVerifyTokenSealed: official
            ? cipher.encrypt(verifyToken)
            : (before?.webhookVerifyTokenSealed ?? null),
          updatedBy: actor.id,
        });
        const changed = FIELDS.filter((field) => previous?.[field] !== after[field]);
        await recordAudit(tx, {
          userId: actor.id,
          action: before ? 'panel.update' : 'panel.create',
          entity: 'panel_config',
          entityId: 1,
          // Secrets are sealed: the log shows that they changed, never what they are.
          before: previous ? pick(previous, changed) : null,
          after: pick(after, changed),
        });
        return official ? { webhookVerifyToken: verifyToken, webhookUrl } : undefined;
      });
    },
  };
}

/** The changed fields' values, secrets only as "(hidden)" (recordAudit hides them too). */
function pick(config: Record<Field, unknown>, fields: readonly Field[]) {
  return Object.fromEntries(
    fields
      .filter((field) => config[field] !== undefined || SECRETS.includes(field))
      .map((field) => [field, SECRETS.includes(field) ? AUDIT_HIDDEN : config[field]]),
  );
}
