import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { storableText } from './common.js';

/**
 * A person's name: one line of any script. A customer's name goes into the WhatsApp notices the
 * shop's number sends, so a name must not be able to carry a message of its own: no line
 * breaks, no characters that hide or reorder text, no web address.
 */

/** Newlines, tabs and every other control character; the Unicode line and paragraph breaks. */
const LINE_BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]/u;
/**
 * Invisible format characters (direction overrides and isolates, zero-width space, byte-order
 * mark, soft hyphen…), except the zero-width non-joiner and joiner that spell Indian scripts.
 */
const HIDDEN = /(?![\u200C\u200D])\p{Cf}/u;
/**
 * A web address as WhatsApp would make it a link: a scheme, "www.", a host with a path, or a
 * host under a common top-level domain ("pay-here.in"). Initials (`K.Ramesh`, `Rao Jr.`) are
 * not addresses, nor are the degrees B.Com and M.Com: a one-letter .com host (no path, no
 * subdomain) has long been taken or kept back by the registry, so it can never be a link of the
 * sender's choosing.
 */
const WEB_ADDRESS =
  /:\/\/|www\.|[\p{L}\p{N}-]\.\p{L}{2,}\/|(?!(?<![\p{L}\p{N}.-])[a-z]\.com(?![\p{L}\p{N}-]|\.[\p{L}\p{N}]))[\p{L}\p{N}-]\.(?:com|in|net|org|co|io|ly|me|info|xyz|app|link|site|online|shop|top|biz|club)(?![\p{L}\p{N}])/iu;

/** What a stored name that holds a web address is shown and sent as. */
export const NAME_WITHHELD = 'Customer';

export const isOneLineName = (name: string) => !LINE_BREAKING.test(name) && !HIDDEN.test(name);
export const hasWebAddress = (name: string) => WEB_ADDRESS.test(name);

const nameRules = (field: string, typeError?: string) =>
  storableText(field, typeError)
    .trim()
    .max(LIMITS.customerNameMaxLength, {
      error: `${field} must be at most ${LIMITS.customerNameMaxLength} characters.`,
      abort: true,
    })
    .refine(isOneLineName, { error: MESSAGES.nameOnOneLine(field), abort: true })
    .refine((name) => !hasWebAddress(name), { error: MESSAGES.nameWithLink(field) });

/** A required name (a customer's, a staff member's); `required` is said when it is empty. */
export const personName = (field: string, required: string) =>
  nameRules(field, required).refine((name) => name !== '', { error: required, abort: true });

/** A name that may be left out (`''`). */
export const optionalPersonName = (field: string) => nameRules(field).default('');

/**
 * A name stored before these rules, as it is shown and sent: on one line, without hidden
 * characters, no longer than a name may be. A name holding a web address is withheld
 * ({@link NAME_WITHHELD}): no part of it can be trusted to be a name.
 */
export function cleanName(name: string): string {
  const oneLine = name
    .replace(new RegExp(LINE_BREAKING, 'gu'), ' ')
    .replace(new RegExp(HIDDEN, 'gu'), '')
    .replace(/ {2,}/g, ' ')
    .trim();
  if (hasWebAddress(oneLine)) return NAME_WITHHELD;
  // Cut as the length rule counts (UTF-16 units), never through the middle of an emoji.
  return oneLine
    .slice(0, LIMITS.customerNameMaxLength)
    .replace(/[\uD800-\uDBFF]$/, '')
    .trim();
}
