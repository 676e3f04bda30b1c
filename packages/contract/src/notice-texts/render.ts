import type { Language } from '../languages.js';
import {
  NOTICE_PLACEHOLDER_PATTERN,
  NOTICE_PLACEHOLDERS,
  type NoticeValues,
} from '../schemas/notices.js';
import { DEFAULT_NOTICE_TEXTS_BY_LANGUAGE } from './by-language.js';
import { groupedCount } from './words.js';

/** A count of points grouped the Indian way, as the rupees beside it are: "1,125", "+1,125". */
function groupedPoints(value: string | number): string {
  const signed = /^([+-]?)(\d+)$/.exec(String(value));
  return signed ? `${signed[1]}${groupedCount(Number(signed[2]))}` : String(value);
}

/**
 * A staff adjustment's signed points ("+50", "-50") said in the customer's language: "50 points
 * have been added to", "50 points have been deducted from"; never "adjusted by -50".
 */
function adjustmentWords(points: string | number | undefined, language: Language): string {
  const signed = /^([+-]?)(\d+)$/.exec(String(points ?? ''));
  if (!signed) return '';
  const { adjustment } = DEFAULT_NOTICE_TEXTS_BY_LANGUAGE[language];
  const count = Number(signed[2]);
  return signed[1] === '-' ? adjustment.deducted(count) : adjustment.added(count);
}

/**
 * A template's text with its placeholders filled, `{adjustment}` in the text's language. An
 * unknown placeholder stays as typed, so a misspelt `{nmae}` shows in the preview instead of
 * vanishing.
 */
export function renderNotice(
  text: string,
  values: NoticeValues,
  language: Language = 'en',
): string {
  return text.replace(NOTICE_PLACEHOLDER_PATTERN, (whole, key: string) => {
    if (!(NOTICE_PLACEHOLDERS as readonly string[]).includes(key)) return whole;
    if (key === 'adjustment') return adjustmentWords(values.points, language);
    const value = values[key as keyof NoticeValues];
    if (value === undefined) return '';
    return key === 'points' || key === 'balance' ? groupedPoints(value) : String(value);
  });
}
