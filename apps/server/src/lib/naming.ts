import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * How an erased customer is found in free text typed about someone else (another customer's
 * narration, a payment reference): their mobile number, written with the usual spaces, dots
 * or hyphens and a +91, 91 or 0 in front, and their name as a whole phrase, in any case.
 *
 * `regex` is PostgreSQL's (an ARE, used with `~*` and `regexp_replace(..., 'gi')`) and `pattern`
 * the same rule in JavaScript (for the audit trail's JSON, read row by row); `likes` are ILIKE
 * patterns of which every match contains one, so a trigram index finds the few rows to test
 * instead of reading every narration.
 */
export interface Naming {
  regex: string;
  pattern: RegExp;
  likes: string[];
}

/** A name shorter than this (in letters) would match inside too many ordinary words. */
export const NAME_MIN_LETTERS = 3;

/**
 * One-word names that are also the trade's everyday words: a customer called "Gold" or
 * "Lakshmi" is not taken out of every "Gold coin" or "Lakshmi puja offer" of other customers.
 * A name of two words or more is matched as a phrase, which such words never make.
 */
const EVERYDAY_WORDS = new Set([
  'gold',
  'silver',
  'diamond',
  'platinum',
  'ring',
  'chain',
  'coin',
  'bangle',
  'pearl',
  'ruby',
  'cash',
  'card',
  'bank',
  'cheque',
  'online',
  'points',
  'point',
  'sale',
  'return',
  'redemption',
  'bonus',
  'scheme',
  'offer',
  'gift',
  'festival',
  'diwali',
  'lakshmi',
  'dhanteras',
  'akshaya',
  'opening',
  'balance',
  'customer',
  'erased',
  'shop',
  'counter',
  'invoice',
  'bill',
  'advance',
  'refund',
  'adjustment',
  'allocated',
  'deducted',
  'purchase',
  'exchange',
  'old',
  'new',
  'birthday',
  'anniversary',
  'wedding',
  'referral',
]);

/** The characters both regex dialects give a meaning: written with a backslash, they are plain. */
const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The words of a name worth looking for, or none when the name would match ordinary text. */
function nameWords(name: string): string[] {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.join('').replace(/[^\p{L}]/gu, '').length;
  if (letters < NAME_MIN_LETTERS) return [];
  if (words.length === 1 && EVERYDAY_WORDS.has(words[0]!.toLowerCase())) return [];
  return words;
}

/**
 * The naming rule for a customer's name and mobile number; undefined when neither can be told
 * apart from ordinary text (no number, and a name too short or an everyday word).
 */
export function namingOf(name: string, mobile: string | null): Naming | undefined {
  const regexes: string[] = [];
  const patterns: string[] = [];
  const likes: string[] = [];
  const words = nameWords(name);
  if (words.length > 0) {
    const phrase = words.map(escapeRegex).join('\\s+');
    // Whole words only: "Ram" is not in "Ramesh", "Gita" not in "Sangita".
    regexes.push(`(?<![[:alnum:]_])${phrase}(?![[:alnum:]_])`);
    patterns.push(`(?<![\\p{L}\\p{N}_])${phrase}(?![\\p{L}\\p{N}_])`);
    likes.push(`%${words.map(escapeLike).join('%')}%`);
  }
  if (mobile && /^\d{10}$/.test(mobile)) {
    const digits = [...mobile].join('[ .-]{0,2}');
    const number = `(?<![0-9])(?:(?:\\+|00)?91[ .-]{0,2}|0)?${digits}(?![0-9])`;
    regexes.push(number);
    patterns.push(number);
    // However the number is grouped (5 5, 3 3 4, 4 3 3, 2 4 4, whole), its first or its last
    // four digits are written together.
    likes.push(`%${mobile.slice(0, 4)}%`, `%${mobile.slice(6)}%`);
  }
  if (regexes.length === 0) return undefined;
  return {
    regex: regexes.map((part) => `(?:${part})`).join('|'),
    pattern: new RegExp(patterns.map((part) => `(?:${part})`).join('|'), 'giu'),
    likes,
  };
}

/** Whether `text` names them: one of the index-friendly ILIKEs, then the exact rule. */
export function namesIn(text: SQL | AnyPgColumn, naming: Naming): SQL {
  const likes = sql.join(
    naming.likes.map((like) => sql`${text} ILIKE ${like}`),
    sql` OR `,
  );
  // The exact rule is tested on `text || ''`, which no index matches: the planner finds the
  // rows by the ILIKEs' trigrams (few) rather than by the rule's (it can extract next to none
  // from a number whose digits may be spaced, and would test most rows).
  return sql`((${likes}) AND (${text} || '') ~* ${naming.regex})`;
}

/** `text` with every mention of them replaced by `replacement`. */
export const withoutNaming = (text: SQL | AnyPgColumn, naming: Naming, replacement: string) =>
  sql`regexp_replace(${text}, ${naming.regex}, ${replacement}, 'gi')`;
