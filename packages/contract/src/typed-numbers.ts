/**
 * Numbers as staff type them at the counter: Indian grouping (2,00,000), Western grouping
 * (200,000), spaces, a leading ₹ or Rs. Every amount and count field of every screen reads its
 * text here, and the API reads the same way the fields that may arrive as text.
 */

/** The rupee sign or "Rs"/"Rs." in front, and every space (a pasted "₹ 2,00,000 "). */
const withoutSignAndSpaces = (typed: string) =>
  typed.replace(/\s+/g, '').replace(/^(₹|rs\.?)/i, '');

/**
 * Where commas may stand: none, Indian grouping (the last three digits, then pairs: 12,34,567)
 * or Western (threes: 1,234,567). Any other place is a slip of the hand ("7,9,04"): which number
 * was meant is not certain, so none is read.
 */
const GROUPED = /^-?(\d+|\d{1,2}(,\d{2})*,\d{3}|\d{1,3}(,\d{3})+)(\.\d*)?$/;

/**
 * The number in what was typed, or NaN when it is blank or not a number (the field's own rule
 * then says what it takes). Paise stay: whether a field takes them is the field's rule.
 */
export function readTypedNumber(typed: string): number {
  const text = withoutSignAndSpaces(typed);
  if (!GROUPED.test(text)) return Number.NaN;
  return Number(text.replaceAll(',', ''));
}

/**
 * The digits of what was typed into a digits-only field (points, a scheme's amount), grouping
 * left out, so "1,000" typed or pasted keeps 1000; null when anything else is in it (a letter,
 * a decimal point, a minus) or more than `maxDigits` digits, and the keystroke is ignored. The
 * field counts digits, not characters: a length limit on the box itself would cut a pasted
 * "10,00,000" to "10,00,0", another amount.
 */
export function typedDigits(typed: string, maxDigits = Number.POSITIVE_INFINITY): string | null {
  const digits = withoutSignAndSpaces(typed).replaceAll(',', '');
  return /^\d*$/.test(digits) && digits.length <= maxDigits ? digits : null;
}
