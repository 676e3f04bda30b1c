export { DEFAULT_NOTICE_TEXTS_BY_LANGUAGE } from './by-language.js';
export { renderNotice } from './render.js';
export type { NoticeTexts } from './words.js';
