import { MEMBER_MESSAGES } from '../members.js';
import { DEFAULT_NOTICE_TEXTS } from '../schemas/notices.js';
import { groupedCount, type NoticeTexts } from './words.js';

const said = (points: number) =>
  `${groupedCount(points)} ${points === 1 ? 'point has' : 'points have'}`;

/**
 * English: the texts every shop has sent so far, kept where their screens and the sign-in
 * already take them from. A staff adjustment is said as the counter says it, "50 points have
 * been added to", never "adjusted by -50".
 */
export const EN_NOTICE_TEXTS: NoticeTexts = {
  notices: DEFAULT_NOTICE_TEXTS,
  adjustment: {
    added: (points) => `${said(points)} been added to`,
    deducted: (points) => `${said(points)} been deducted from`,
  },
  signInCode: MEMBER_MESSAGES.codeText,
};
