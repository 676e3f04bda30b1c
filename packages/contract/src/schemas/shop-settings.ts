import { z } from 'zod';
import { API_PATHS } from '../api-paths.js';
import { API_PREFIX } from '../sign-in-paths.js';
import { SHOP_SETTINGS_MESSAGES as M } from '../ui-texts-shop-settings.js';
import { dataResponse, storableText } from './common.js';
import { isOneLineName } from './names.js';

export const SHOP_SETTINGS_LIMITS = {
  /** The shop's name, tagline and "powered by", each. */
  textMaxLength: 80,
  /** A logo's file: small enough for the sign-in page to load at once on a phone. */
  logoMaxBytes: 256 * 1024,
  /** A logo's picture, each side: a header shows it a few dozen pixels high. */
  logoMaxSide: 2000,
} as const;

/** The 36 characters of a GSTIN, each worth its place here in the check digit's sum. */
const GSTIN_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** State code, PAN, entity number, `Z`, check character. */
export const GSTIN_PATTERN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/**
 * The check character of a GSTIN's first 14 characters (the GSTN's mod-36 scheme): each
 * character's value, times 1 and 2 in turn, its quotient and remainder by 36 added up; the
 * check character is what brings the sum to a multiple of 36.
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_CHARACTERS.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARACTERS[(36 - (sum % 36)) % 36]!;
}

/** A GSTIN of the right shape whose last character is the check character of the rest. */
export const isValidGstin = (gstin: string) =>
  GSTIN_PATTERN.test(gstin) && gstinCheckCharacter(gstin.slice(0, 14)) === gstin[14];

/** One line of text, at most `max` characters, as the settings hold it. */
const line = (field: string, max: number = SHOP_SETTINGS_LIMITS.textMaxLength) =>
  storableText(field, `${field} must be text.`)
    .trim()
    .max(max, { error: M.tooLong(field, max), abort: true })
    .refine(isOneLineName, { error: M.oneLine(field), abort: true });

/**
 * The shop's GSTIN, or `''` for a shop without one (below the GST threshold, or not yet
 * registered): receipts then carry none. Typed in any case, kept in capitals.
 */
export const gstinField = storableText('GSTIN', 'GSTIN must be text.')
  .trim()
  .toUpperCase()
  .refine((gstin) => gstin === '' || GSTIN_PATTERN.test(gstin), {
    error: M.gstinFormat,
    abort: true,
  })
  .refine((gstin) => gstin === '' || isValidGstin(gstin), { error: M.gstinCheckDigit });

/** `PUT /api/settings/shop`: every field; an empty one is left out where it would show. */
export const shopSettingsForm = z.object({
  companyName: line('Shop name').refine((name) => name !== '', {
    error: M.companyNameRequired,
    abort: true,
  }),
  tagline: line('Tagline'),
  gstin: gstinField,
  supportPhone: line('Support phone', 20).refine(
    (phone) => phone === '' || /^\+?[\d\s()-]{6,20}$/.test(phone),
    { error: M.supportPhone },
  ),
  poweredBy: line('Powered by'),
});
export type ShopSettingsForm = z.input<typeof shopSettingsForm>;

/** The settings as saved, with the logo's address when the shop has one. */
export const shopSettings = z.object({
  companyName: z.string(),
  tagline: z.string(),
  gstin: z.string(),
  supportPhone: z.string(),
  poweredBy: z.string(),
  /** Changes with the logo, so a browser never shows an old one from its cache. */
  logoUrl: z.string().nullable(),
});
export type ShopSettings = z.infer<typeof shopSettings>;

export const shopSettingsResponse = dataResponse(shopSettings);

/** The logo's address: its content's hash in the query, so each logo has an address of its own. */
export const shopLogoUrl = (sha256: string) =>
  `${API_PREFIX}${API_PATHS.shopLogo}?v=${sha256.slice(0, 16)}`;
