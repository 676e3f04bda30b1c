import { asc, sql } from 'drizzle-orm';
import type { WhatsAppTemplate } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { whatsappTemplates } from '../../db/schema.js';

/** Rows a single INSERT takes: well inside PostgreSQL's limit of parameters a statement. */
const ROWS_AN_INSERT = 1_000;

export const whatsappRepo = {
  /** The templates held, by name and language. */
  templates(tx: Tx): Promise<WhatsAppTemplate[]> {
    return tx
      .select({
        name: whatsappTemplates.name,
        language: whatsappTemplates.language,
        category: whatsappTemplates.category,
        status: whatsappTemplates.status,
        parameters: whatsappTemplates.parameters,
      })
      .from(whatsappTemplates)
      .orderBy(asc(whatsappTemplates.name), asc(whatsappTemplates.language));
  },

  /**
   * The templates held become exactly these, in the caller's transaction. Two syncs at once
   * take turns: the second replaces what the first wrote.
   */
  async replaceTemplates(tx: Tx, templates: WhatsAppTemplate[]) {
    await tx.execute(sql`LOCK TABLE whatsapp_templates IN SHARE ROW EXCLUSIVE MODE`);
    await tx.delete(whatsappTemplates);
    for (let at = 0; at < templates.length; at += ROWS_AN_INSERT)
      await tx.insert(whatsappTemplates).values(templates.slice(at, at + ROWS_AN_INSERT));
  },
};
