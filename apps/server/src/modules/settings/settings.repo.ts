import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { shopSettings } from '../../db/schema.js';

const ROW_ID = 1;

/** The shop's settings as the screens and the notices read them: everything but the logo's bytes. */
const settingsColumns = {
  companyName: shopSettings.companyName,
  tagline: shopSettings.tagline,
  gstin: shopSettings.gstin,
  supportPhone: shopSettings.supportPhone,
  poweredBy: shopSettings.poweredBy,
  logoSha256: shopSettings.logoSha256,
};

export interface ShopSettingsRow {
  companyName: string;
  tagline: string;
  gstin: string;
  supportPhone: string;
  poweredBy: string;
  logoSha256: string | null;
}

export type ShopTexts = Omit<ShopSettingsRow, 'logoSha256'>;

export const settingsRepo = {
  async find(tx: Tx, options: { forUpdate?: boolean } = {}): Promise<ShopSettingsRow | undefined> {
    const query = tx.select(settingsColumns).from(shopSettings).where(eq(shopSettings.id, ROW_ID));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  /** The first start's row; a row already there (any later start) is left as it is. */
  async seed(tx: Tx, values: ShopTexts): Promise<boolean> {
    const rows = await tx
      .insert(shopSettings)
      .values({ id: ROW_ID, ...values })
      .onConflictDoNothing({ target: shopSettings.id })
      .returning({ id: shopSettings.id });
    return rows.length > 0;
  },

  async saveTexts(tx: Tx, values: ShopTexts, updatedBy: number) {
    await tx
      .update(shopSettings)
      .set({ ...values, updatedBy, updatedAt: sql`now()` })
      .where(eq(shopSettings.id, ROW_ID));
  },

  /** A logo in place of the one there was (none: no logo). */
  async setLogo(
    tx: Tx,
    logo: { data: Buffer; mime: string; sha256: string } | null,
    updatedBy: number,
  ) {
    await tx
      .update(shopSettings)
      .set({
        logo: logo?.data ?? null,
        logoMime: logo?.mime ?? null,
        logoSha256: logo?.sha256 ?? null,
        updatedBy,
        updatedAt: sql`now()`,
      })
      .where(eq(shopSettings.id, ROW_ID));
  },

  async logoMeta(tx: Tx) {
    const [row] = await tx
      .select({ mime: shopSettings.logoMime, sha256: shopSettings.logoSha256 })
      .from(shopSettings)
      .where(eq(shopSettings.id, ROW_ID));
    return row?.mime && row.sha256 ? { mime: row.mime, sha256: row.sha256 } : undefined;
  },

  async logo(tx: Tx) {
    const [row] = await tx
      .select({
        mime: shopSettings.logoMime,
        sha256: shopSettings.logoSha256,
        data: shopSettings.logo,
      })
      .from(shopSettings)
      .where(eq(shopSettings.id, ROW_ID));
    return row?.mime && row.sha256 && row.data
      ? { mime: row.mime, sha256: row.sha256, data: row.data }
      : undefined;
  },
};
