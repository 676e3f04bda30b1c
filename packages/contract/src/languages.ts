import { z } from 'zod';

/**
 * The languages a customer may hear from the shop in: English and nine Indian languages, in the
 * switcher's order (English, Hindi, then the others by their codes).
 */
export const LANGUAGES = ['en', 'hi', 'bn', 'gu', 'kn', 'ml', 'mr', 'pa', 'ta', 'te'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A language as the customer's choice arrives: one of the list, nothing else. */
export const language = z.enum(LANGUAGES, { error: 'Choose one of the listed languages.' });

/** Each language by its own name, in its own script: what a customer looks for in a switcher. */
export const LANGUAGE_OWN_NAMES: Record<Language, string> = {
  en: 'English',
  hi: 'हिन्दी',
  bn: 'বাংলা',
  gu: 'ગુજરાતી',
  kn: 'ಕನ್ನಡ',
  ml: 'മലയാളം',
  mr: 'मराठी',
  pa: 'ਪੰਜਾਬੀ',
  ta: 'தமிழ்',
  te: 'తెలుగు',
};

/** Each language by its English name: how staff screens show a customer's choice. */
export const LANGUAGE_ENGLISH_NAMES: Record<Language, string> = {
  en: 'English',
  hi: 'Hindi',
  bn: 'Bengali',
  gu: 'Gujarati',
  kn: 'Kannada',
  ml: 'Malayalam',
  mr: 'Marathi',
  pa: 'Punjabi',
  ta: 'Tamil',
  te: 'Telugu',
};

/**
 * The code WhatsApp knows each language's message templates by (Meta's list of template
 * languages). English is the plain "en" Meta lists beside en_US and en_GB: the notices are
 * written in no one country's English. A template is approved for one code and sent with
 * exactly that code.
 */
export const WHATSAPP_LANGUAGE_CODES: Record<Language, string> = {
  en: 'en',
  hi: 'hi',
  bn: 'bn',
  gu: 'gu',
  kn: 'kn',
  ml: 'ml',
  mr: 'mr',
  pa: 'pa',
  ta: 'ta',
  te: 'te',
};
