import {
  AUDIT_HIDDEN,
  EMPTY_PANEL_CONFIG,
  type PanelConfig,
  type PanelConfigForm,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import type { FieldCipher } from '../../lib/crypto.js';
import type { StaffIdentity } from '../../plugins/types.js';
import { messagingRepo, type PanelConfigRow } from './messaging.repo.js';

export type MessagingService = ReturnType<typeof createMessagingService>;

interface Deps {
  db: Db;
  cipher: FieldCipher;
}

export function createMessagingService({ db, cipher }: Deps) {
  const toConfig = (row: PanelConfigRow): PanelConfig => ({
    instanceid: row.instanceId,
    token: cipher.decrypt(row.tokenSealed),
    panel: row.panel as 1 | 2 | 3,
    phone: row.phone,
  });

  return {
    /** The saved configuration with its token readable; never saved: every field ''. */
    async get(): Promise<PanelConfig> {
      const row = await messagingRepo.find(db);
      return row ? toConfig(row) : { ...EMPTY_PANEL_CONFIG };
    },

    /** Saves the one configuration; the token is sealed, and stays out of the audit log. */
    async save(actor: StaffIdentity, form: PanelConfigForm): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await messagingRepo.find(tx, { forUpdate: true });
        const previous = before ? toConfig(before) : undefined;
        await messagingRepo.upsert(tx, {
          instanceId: form.instanceid,
          tokenSealed: cipher.encrypt(form.token),
          panel: form.panel,
          phone: form.phone,
          updatedBy: actor.id,
        });
        const changed = (['instanceid', 'token', 'panel', 'phone'] as const).filter(
          (field) => previous?.[field] !== form[field],
        );
        await recordAudit(tx, {
          userId: actor.id,
          action: before ? 'panel.update' : 'panel.create',
          entity: 'panel_config',
          entityId: 1,
          // The token is sealed: the log shows that it changed, never what it is.
          before: previous ? pick(previous, changed) : null,
          after: pick(form, changed),
        });
      });
    },
  };
}

/** The changed fields' values, the token only as "(hidden)" (recordAudit hides it too). */
function pick(
  config: Record<'instanceid' | 'token' | 'panel' | 'phone', unknown>,
  fields: readonly ('instanceid' | 'token' | 'panel' | 'phone')[],
) {
  return Object.fromEntries(
    fields.map((field) => [field, field === 'token' ? AUDIT_HIDDEN : config[field]]),
  );
}
