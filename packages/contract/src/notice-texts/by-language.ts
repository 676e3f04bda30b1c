import type { Language } from '../languages.js';
import { BN_NOTICE_TEXTS } from './bn.js';
import { EN_NOTICE_TEXTS } from './en.js';
import { GU_NOTICE_TEXTS } from './gu.js';
import { HI_NOTICE_TEXTS } from './hi.js';
import { KN_NOTICE_TEXTS } from './kn.js';
import { ML_NOTICE_TEXTS } from './ml.js';
import { MR_NOTICE_TEXTS } from './mr.js';
import { PA_NOTICE_TEXTS } from './pa.js';
import { TA_NOTICE_TEXTS } from './ta.js';
import { TE_NOTICE_TEXTS } from './te.js';
import type { NoticeTexts } from './words.js';

/** What a shop sends each customer, in the customer's language, until the owner changes it. */
export const DEFAULT_NOTICE_TEXTS_BY_LANGUAGE: Record<Language, NoticeTexts> = {
  en: EN_NOTICE_TEXTS,
  hi: HI_NOTICE_TEXTS,
  bn: BN_NOTICE_TEXTS,
  gu: GU_NOTICE_TEXTS,
  kn: KN_NOTICE_TEXTS,
  ml: ML_NOTICE_TEXTS,
  mr: MR_NOTICE_TEXTS,
  pa: PA_NOTICE_TEXTS,
  ta: TA_NOTICE_TEXTS,
  te: TE_NOTICE_TEXTS,
};
