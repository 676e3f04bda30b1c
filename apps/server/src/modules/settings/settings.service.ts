import { performance } from 'node:perf_hooks';
import { imageSize } from 'image-size';
import {
  SHOP_SETTINGS_LIMITS,
  SHOP_SETTINGS_MESSAGES,
  shopLogoUrl,
  type Branding,
  type ShopSettings,
  type ShopSettingsForm,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { sha256 } from '../../lib/crypto.js';
import {
  InvalidInputError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../../lib/errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import { judgeImage } from '../content/index.js';
import { settingsRepo, type ShopSettingsRow, type ShopTexts } from './settings.repo.js';

export type SettingsService = ReturnType<typeof createSettingsService>;

/**
 * How long an instance keeps the settings it read. Several instances share one database, and
 * each sees the owner's change once its copy is this old: well within the 5 s the owner is
 * promised, at one small read per instance every 2 s at most.
 */
export const SETTINGS_CACHE_MS = 2_000;

const TEXT_FIELDS = ['companyName', 'tagline', 'gstin', 'supportPhone', 'poweredBy'] as const;
const LOGO_TYPES = new Set(['image/png', 'image/jpeg']);
const M = SHOP_SETTINGS_MESSAGES;
const logoKilobytes = SHOP_SETTINGS_LIMITS.logoMaxBytes / 1024;

interface Deps {
  db: Db;
  /**
   * The environment's values (COMPANY_NAME and the rest): the row the first start writes, and
   * what a process reads while no start has written one yet (a worker started first).
   */
  initial: ShopTexts;
  /** How long a read is kept (tests may shorten it). */
  cacheMs?: number;
}

export const toShopSettings = (row: ShopSettingsRow): ShopSettings => ({
  companyName: row.companyName,
  tagline: row.tagline,
  gstin: row.gstin,
  supportPhone: row.supportPhone,
  poweredBy: row.poweredBy,
  logoUrl: row.logoSha256 ? shopLogoUrl(row.logoSha256) : null,
});

/**
 * The sign-in page's branding with the shop's settings in place of the environment's: the
 * address, time zone and scheme terms stay `base`'s.
 */
export const withShopSettings = (base: Branding, shop: ShopSettings): Branding => ({
  ...base,
  companyName: shop.companyName,
  companyTagline: shop.tagline,
  supportPhone: shop.supportPhone,
  poweredBy: shop.poweredBy,
  gstin: shop.gstin || undefined,
  logoUrl: shop.logoUrl ?? undefined,
});

/**
 * The logo's bytes judged as the app's images are (content's magic numbers and pixel count),
 * then held to a logo's own rules: PNG or JPEG, small, a few thousand pixels a side at most.
 */
async function judgeLogo(bytes: Buffer): Promise<string> {
  if (bytes.length === 0) throw new InvalidInputError(M.logoRequired);
  if (bytes.length > SHOP_SETTINGS_LIMITS.logoMaxBytes)
    throw new PayloadTooLargeError(M.logoTooLarge(logoKilobytes));
  let mime: string;
  try {
    mime = await judgeImage(bytes);
  } catch (error) {
    // Content's words name the GIF and WebP its banners may be; a logo may not.
    if (error instanceof UnsupportedMediaTypeError)
      throw new UnsupportedMediaTypeError(M.logoFormat);
    throw error;
  }
  if (!LOGO_TYPES.has(mime)) throw new UnsupportedMediaTypeError(M.logoFormat);
  const { width, height } = imageSize(bytes);
  const side = SHOP_SETTINGS_LIMITS.logoMaxSide;
  if (width > side || height > side)
    throw new PayloadTooLargeError(M.logoTooManyPixels(side, side));
  return mime;
}

/**
 * The shop's settings: its name, tagline, GSTIN, phones and logo. The environment's values
 * are written once, at the first start; from then on the owner's screen is the only writer.
 * Every read goes through a short cache, shared by the sign-in page's branding, the notices'
 * {shop} and the receipts' GSTIN: an instance reads the row at most once per SETTINGS_CACHE_MS,
 * and its own changes at once.
 */
export function createSettingsService({ db, initial, cacheMs = SETTINGS_CACHE_MS }: Deps) {
  let cached: { row: ShopSettingsRow; readAt: number } | undefined;
  let reading: Promise<ShopSettingsRow> | undefined;
  /** Bumped by every change here: a read begun before it does not keep what it found. */
  let generation = 0;

  const read = async (tx: Tx): Promise<ShopSettingsRow> =>
    (await settingsRepo.find(tx)) ?? { ...initial, logoSha256: null };

  const readAndKeep = async (tx: Tx): Promise<ShopSettingsRow> => {
    const began = { at: performance.now(), generation };
    const row = await read(tx);
    if (began.generation === generation) cached = { row, readAt: began.at };
    return row;
  };

  /**
   * The settings in force, at most `cacheMs` old. Inside a transaction, read on it: a change
   * holding a connection never waits for a second one.
   */
  async function current(tx?: Tx): Promise<ShopSettingsRow> {
    if (cached && performance.now() - cached.readAt < cacheMs) return cached.row;
    if (tx && tx !== db) return readAndKeep(tx);
    // Requests that find the copy old at the same moment share one read.
    reading ??= readAndKeep(db).finally(() => (reading = undefined));
    return reading;
  }

  const changed = () => {
    generation++;
    cached = undefined;
  };

  /** The row, made from the environment's values if no start has made it yet, locked. */
  async function lockedRow(tx: Tx): Promise<ShopSettingsRow> {
    await settingsRepo.seed(tx, initial);
    return (await settingsRepo.find(tx, { forUpdate: true }))!;
  }

  return {
    current,

    /** The settings in force (at most `cacheMs` old), as the screens show them. */
    shop: async (): Promise<ShopSettings> => toShopSettings(await current()),

    /** The shop's name ({shop} in notices and messages). */
    companyName: async (tx?: Tx) => (await current(tx)).companyName,

    /** The shop's name read from the database now, for work that must not vary with the cache. */
    companyNameRead: async () => (await readAndKeep(db)).companyName,

    /** The shop's GSTIN for receipts; null for a shop without one. */
    gstin: async (tx?: Tx) => (await current(tx)).gstin || null,

    /** The first start writes the environment's values; any later start leaves the row be. */
    seed: () => settingsRepo.seed(db, initial),

    async get(): Promise<ShopSettings> {
      return toShopSettings(await read(db));
    },

    async save(actor: StaffIdentity, form: ShopSettingsForm): Promise<ShopSettings> {
      const values = Object.fromEntries(
        TEXT_FIELDS.map((field) => [field, form[field]]),
      ) as ShopTexts;
      const saved = await db.transaction(async (tx) => {
        const before = await lockedRow(tx);
        const fields = TEXT_FIELDS.filter((field) => before[field] !== values[field]);
        if (fields.length === 0) return before;
        await settingsRepo.saveTexts(tx, values, actor.id);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'shop.save',
          entity: 'shop_settings',
          entityId: 1,
          before: Object.fromEntries(fields.map((field) => [field, before[field]])),
          after: Object.fromEntries(fields.map((field) => [field, values[field]])),
        });
        return { ...before, ...values };
      });
      changed();
      return toShopSettings(saved);
    },

    async setLogo(actor: StaffIdentity, bytes: Buffer): Promise<ShopSettings> {
      const mime = await judgeLogo(bytes);
      const digest = sha256(bytes);
      const saved = await db.transaction(async (tx) => {
        const before = await lockedRow(tx);
        await settingsRepo.setLogo(tx, { data: bytes, mime, sha256: digest }, actor.id);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'shop.logo',
          entity: 'shop_settings',
          entityId: 1,
          before: before.logoSha256 ? { logo: before.logoSha256 } : null,
          after: { logo: digest, mime, sizeBytes: bytes.length },
        });
        return { ...before, logoSha256: digest };
      });
      changed();
      return toShopSettings(saved);
    },

    async removeLogo(actor: StaffIdentity): Promise<ShopSettings> {
      const saved = await db.transaction(async (tx) => {
        const before = await lockedRow(tx);
        if (!before.logoSha256) throw new NotFoundError(M.noLogo);
        await settingsRepo.setLogo(tx, null, actor.id);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'shop.logoRemove',
          entity: 'shop_settings',
          entityId: 1,
          before: { logo: before.logoSha256 },
          after: null,
        });
        return { ...before, logoSha256: null };
      });
      changed();
      return toShopSettings(saved);
    },

    /**
     * The logo for serving. With `isCached` (the browser sent If-None-Match), the bytes are
     * read only when its copy is not the logo now; `data: null` means "not modified".
     */
    async logo(
      isCached?: (sha256: string) => boolean,
    ): Promise<{ mime: string; sha256: string; data: Buffer | null } | undefined> {
      if (isCached) {
        const meta = await settingsRepo.logoMeta(db);
        if (!meta) return undefined;
        if (isCached(meta.sha256)) return { ...meta, data: null };
      }
      return settingsRepo.logo(db);
    },
  };
}
