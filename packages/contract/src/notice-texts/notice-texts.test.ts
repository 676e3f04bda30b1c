import { describe, expect, it } from 'vitest';
import {
  LANGUAGE_ENGLISH_NAMES,
  LANGUAGE_OWN_NAMES,
  LANGUAGES,
  WHATSAPP_LANGUAGE_CODES,
  language,
  type Language,
} from '../languages.js';
import { LIMITS } from '../limits.js';
import { MEMBER_LIMITS, MEMBER_MESSAGES } from '../members.js';
import {
  DEFAULT_NOTICE_TEXTS,
  NOTICE_EVENTS,
  NOTICE_PLACEHOLDER_PATTERN,
  NOTICE_SAMPLE_VALUES,
  unknownPlaceholders,
} from '../schemas/notices.js';
import { DEFAULT_NOTICE_TEXTS_BY_LANGUAGE } from './by-language.js';
import { renderNotice } from './render.js';
import type { NoticeTexts } from './words.js';

/** Each Indian language's script, as its Unicode block: every letter of its texts is in it. */
const SCRIPTS: Record<Exclude<Language, 'en'>, RegExp> = {
  hi: /[\u0900-\u097F]/u,
  mr: /[\u0900-\u097F]/u,
  bn: /[\u0980-\u09FF]/u,
  pa: /[\u0A00-\u0A7F]/u,
  gu: /[\u0A80-\u0AFF]/u,
  ta: /[\u0B80-\u0BFF]/u,
  te: /[\u0C00-\u0C7F]/u,
  kn: /[\u0C80-\u0CFF]/u,
  ml: /[\u0D00-\u0D7F]/u,
};

const CODE = '482913';
/** A shop's name that is no one language's words, taken out before the script is checked. */
const SHOP = '<shop>';

const placeholdersOf = (text: string) =>
  [...new Set([...text.matchAll(NOTICE_PLACEHOLDER_PATTERN)].map((match) => match[1]!))].sort();

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** A text's length as its reader sees it: a letter with its vowel signs counts once. */
const graphemes = (text: string) => [...segmenter.segment(text)].length;

const rupeesIn = (text: string) => [...text].filter((char) => char === '₹').length;

/** What a text says once its placeholders, the code and the shop's name are taken out. */
const wordsOf = (text: string) =>
  text.replace(NOTICE_PLACEHOLDER_PATTERN, ' ').replaceAll(CODE, ' ').replaceAll(SHOP, ' ');

/** Letters (and their vowel signs) of a text that are not of the language's script. */
function foreignLetters(text: string, script: RegExp): string[] {
  return [...wordsOf(text)].filter((char) => /[\p{L}\p{M}]/u.test(char) && !script.test(char));
}

/**
 * What is wrong with one language's texts, said per text: nothing when all is well. Kept apart
 * from the tests so a broken copy can show that each check catches what it is for.
 */
function problemsOf(lang: Language, texts: NoticeTexts): string[] {
  const problems: string[] = [];
  const script = lang === 'en' ? undefined : SCRIPTS[lang];
  const said = (where: string, text: string) => {
    if (wordsOf(text).trim() === '') problems.push(`${where}: empty`);
    if (!script) return;
    const foreign = foreignLetters(text, script);
    if (foreign.length > 0)
      problems.push(`${where}: letters not of its script: ${foreign.join('')}`);
    if (![...text].some((char) => script.test(char))) problems.push(`${where}: not in its script`);
  };

  const events = Object.keys(texts.notices).sort();
  if (JSON.stringify(events) !== JSON.stringify([...NOTICE_EVENTS].sort())) {
    problems.push(`events: ${events.join(', ')}`);
  }
  for (const event of NOTICE_EVENTS) {
    const text = texts.notices[event];
    if (typeof text !== 'string') continue;
    const english = DEFAULT_NOTICE_TEXTS[event];
    said(event, text);
    if (JSON.stringify(placeholdersOf(text)) !== JSON.stringify(placeholdersOf(english))) {
      problems.push(`${event}: placeholders ${placeholdersOf(text).join(' ')}`);
    }
    if (unknownPlaceholders(text).length > 0) problems.push(`${event}: unknown placeholders`);
    if (rupeesIn(text) !== rupeesIn(english))
      problems.push(`${event}: ₹ signs differ from English`);
    if (text.length > LIMITS.noticeTextMaxLength) problems.push(`${event}: too long to save`);
    if (graphemes(text) > graphemes(english) * 1.2)
      problems.push(`${event}: much longer than English`);
    if (/\n/.test(text)) problems.push(`${event}: line break`);
  }

  for (const [kind, phrase] of Object.entries(texts.adjustment)) {
    for (const points of [1, 50, 112500]) {
      const words = phrase(points);
      said(`adjustment.${kind}(${points})`, words);
      if (!words.includes(points.toLocaleString('en-IN'))) {
        problems.push(`adjustment.${kind}(${points}): no count`);
      }
      if (words.includes('{')) problems.push(`adjustment.${kind}(${points}): a placeholder`);
    }
  }

  const signIn = texts.signInCode(CODE, SHOP);
  said('signInCode', signIn);
  if (!signIn.includes(CODE)) problems.push('signInCode: no code');
  if (!signIn.includes(SHOP)) problems.push("signInCode: no shop's name");
  // An authentication message and nothing else: its only number is the code's lifetime, and it
  // carries no price, offer or link.
  const numbers = wordsOf(signIn).match(/\d+/g) ?? [];
  if (
    JSON.stringify(numbers) !== JSON.stringify([String(MEMBER_LIMITS.codeLifetimeSeconds / 60)])
  ) {
    problems.push(`signInCode: numbers ${numbers.join(', ')}`);
  }
  if (/₹|%|https?:|www\.|\{|\n/i.test(signIn)) problems.push('signInCode: more than the code');
  return problems;
}

describe("the notices' texts in every language", () => {
  it.each(LANGUAGES)('%s has every text, each as the English one is', (lang) => {
    expect(problemsOf(lang, DEFAULT_NOTICE_TEXTS_BY_LANGUAGE[lang])).toEqual([]);
  });

  it('keeps the English texts every shop has had', () => {
    const english = DEFAULT_NOTICE_TEXTS_BY_LANGUAGE.en;
    expect(english.notices).toBe(DEFAULT_NOTICE_TEXTS);
    expect(english.signInCode(CODE, 'Kanak Jewellers')).toBe(
      MEMBER_MESSAGES.codeText(CODE, 'Kanak Jewellers'),
    );
    expect(english.adjustment.added(1)).toBe('1 point has been added to');
    expect(english.adjustment.deducted(1125)).toBe('1,125 points have been deducted from');
  });

  it("says a staff adjustment in the text's language", () => {
    const values = { ...NOTICE_SAMPLE_VALUES, points: '+112500' };
    expect(renderNotice(DEFAULT_NOTICE_TEXTS.pointsAdjusted, values)).toBe(
      'Dear Lakshmi Iyer, 1,12,500 points have been added to your points account at Kanak Jewellers. Your balance is now 1,450 points (worth ₹1,450).',
    );
    const hindi = DEFAULT_NOTICE_TEXTS_BY_LANGUAGE.hi;
    expect(renderNotice(hindi.notices.pointsAdjusted, { ...values, points: '-200' }, 'hi')).toBe(
      'नमस्ते Lakshmi Iyer जी, Kanak Jewellers में आपके पॉइंट्स खाते से 200 पॉइंट्स काटे गए हैं। अब आपका बैलेंस 1,450 पॉइंट्स है (₹1,450 के बराबर)।',
    );
    for (const lang of LANGUAGES) {
      const { notices, adjustment } = DEFAULT_NOTICE_TEXTS_BY_LANGUAGE[lang];
      const added = renderNotice(notices.pointsAdjusted, { ...values, points: '+50' }, lang);
      const deducted = renderNotice(notices.pointsAdjusted, { ...values, points: '-50' }, lang);
      expect(added).toContain(adjustment.added(50));
      expect(deducted).toContain(adjustment.deducted(50));
      expect(`${added}${deducted}`).not.toMatch(/[{}]|-50/);
    }
  });

  it('catches a text that lost a placeholder, kept English, or says more than the code', () => {
    const hindi = DEFAULT_NOTICE_TEXTS_BY_LANGUAGE.hi;
    const broken: NoticeTexts = {
      notices: {
        ...hindi.notices,
        schemeClosed: hindi.notices.schemeClosed.replace('{shop}', 'दुकान'),
        tierUpgraded: DEFAULT_NOTICE_TEXTS.tierUpgraded,
      },
      adjustment: { ...hindi.adjustment, deducted: () => '' },
      signInCode: (code) => `${code} आपका साइन-इन कोड है। 10% छूट पाएं!`,
    };
    const problems = problemsOf('hi', broken).join('\n');
    expect(problems).toMatch(/^schemeClosed: placeholders /m);
    expect(problems).toMatch(/^tierUpgraded: letters not of its script/m);
    expect(problems).toMatch(/^adjustment\.deducted\(50\): empty/m);
    expect(problems).toMatch(/^signInCode: no shop's name/m);
    expect(problems).toMatch(/^signInCode: numbers 10/m);
    expect(problems).toMatch(/^signInCode: more than the code/m);

    const { pointsEarned: _missing, ...fewer } = hindi.notices;
    expect(problemsOf('hi', { ...hindi, notices: fewer as NoticeTexts['notices'] })).toContainEqual(
      expect.stringMatching(/^events: /),
    );
    // A text in another Indian script is not this language's either.
    const inTamil = {
      ...hindi,
      notices: {
        ...hindi.notices,
        pointsEarned: DEFAULT_NOTICE_TEXTS_BY_LANGUAGE.ta.notices.pointsEarned,
      },
    };
    expect(problemsOf('hi', inTamil)).toContainEqual(
      expect.stringMatching(/^pointsEarned: letters not/),
    );
  });
});

describe('the languages', () => {
  it('names each language in its own script and in English, with its WhatsApp code', () => {
    for (const lang of LANGUAGES) {
      expect(LANGUAGE_ENGLISH_NAMES[lang]).toMatch(/^[A-Z][a-z]+$/);
      expect(WHATSAPP_LANGUAGE_CODES[lang]).toMatch(/^[a-z]{2}(_[A-Z]{2})?$/);
      if (lang === 'en') continue;
      expect(foreignLetters(LANGUAGE_OWN_NAMES[lang], SCRIPTS[lang])).toEqual([]);
    }
  });

  it('takes a listed language and refuses any other, saying so', () => {
    expect(language.parse('ta')).toBe('ta');
    for (const bad of ['xx', 'EN', 'en_US', '', 7, null]) {
      const parsed = language.safeParse(bad);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('Choose one of the listed languages.');
    }
  });
});
