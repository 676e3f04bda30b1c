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
 * The name as a chat app reads it when it looks for links: compatibility forms folded (fullwidth
 * letters, the fullwidth full stop, the one-dot leader and the small full stop become plain), the
 * ideographic full stop that browsers take for a domain's dot turned into one, and invisible
 * characters dropped (a joiner between two labels does not stop the link).
 */
const asLinkFinderReads = (name: string) =>
  name
    .normalize('NFKC')
    .replace(/\u3002/g, '.')
    .replace(/\p{Cf}/gu, '');

/** A scheme (`http://`, `hxxp://`), `www.`, or an IPv4 address (with or without a path). */
const WEB_ADDRESS_MARK = /:\/\/|www\.|(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!\d)/i;
/** Dotted words: a host's labels (any script, digits, hyphens), or a name's initials. */
const DOTTED = /[\p{L}\p{M}\p{N}_-]+(?:\.[\p{L}\p{M}\p{N}_-]+)+/gu;
/** Letters and digits, not the vowel signs and viramas that belong to a letter. */
const lettersIn = (label: string) => label.replace(/\p{M}/gu, '').length;
/** A host's last label: a top-level domain is two or more letters (`gy`, `store`, `भारत`) or `xn--…`. */
const isTopLevelDomain = (label: string) =>
  /^xn--/i.test(label) || (/^[\p{L}\p{M}]+$/u.test(label) && lettersIn(label) >= 2);

/**
 * Whether a chat app could make a link of the name. New top-level domains come every year
 * (`.store`, `.gold`, `.gy`), so any dotted word ending in two or more letters is a host
 * (`kanak-kyc.store`, `rb.gy`, `evil.gold?x=1`) unless everything before its last dot is
 * initials: `K.Ramesh`, `A.R.Rahman`, `के.आर. नारायणन` and the degrees `B.Com`, `M.Sc` are names,
 * and a one-letter domain is no one's link to choose (the registries keep them back or sold them
 * long ago). Initials with a path, a port or after an `@` are a link all the same. A dot followed
 * by a space is a full stop (`St. Mary's`, `Dr. S. Iyer`); two words joined by a dot read as a
 * host (`Mohd.Irfan`): the assistant is asked to put a space after the dot.
 */
export function hasWebAddress(name: string): boolean {
  const text = asLinkFinderReads(name);
  if (WEB_ADDRESS_MARK.test(text)) return true;
  for (const match of text.matchAll(DOTTED)) {
    const labels = match[0].split('.');
    if (!isTopLevelDomain(labels.at(-1)!)) continue;
    if (labels.slice(0, -1).some((label) => lettersIn(label) >= 2)) return true;
    const before = text[match.index - 1];
    const after = text.slice(match.index + match[0].length);
    if (before === '@' || /^(?:[/?#]|:\p{N})/u.test(after)) return true;
  }
  return false;
}

/** What a stored name that holds a web address is shown and sent as. */
export const NAME_WITHHELD = 'Customer';

export const isOneLineName = (name: string) => !LINE_BREAKING.test(name) && !HIDDEN.test(name);

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
