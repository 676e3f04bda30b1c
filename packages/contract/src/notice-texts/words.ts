import type { NoticeEvent } from '../schemas/notices.js';

/**
 * One language's words for what the shop sends a customer on WhatsApp: each notice's default
 * text, a staff adjustment of points said in words, and the sign-in code's message.
 */
export interface NoticeTexts {
  /** Each event's text, with the same placeholders as its English text. */
  notices: Record<NoticeEvent, string>;
  /**
   * What `{adjustment}` becomes, said from the points' count (never negative): in English the
   * words before "your points account", in the Indian languages the whole clause with it.
   */
  adjustment: { added: (points: number) => string; deducted: (points: number) => string };
  /** The sign-in code's message: an authentication message, nothing else in it. */
  signInCode: (code: string, shop: string) => string;
}

/** A count of points grouped the Indian way, as the rupees beside it are: "1,12,500". */
export const groupedCount = (count: number) => count.toLocaleString('en-IN');
