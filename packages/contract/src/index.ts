export * from './limits.js';
export * from './messages.js';
export * from './dates.js';
export * from './api-paths.js';
export * from './schemas/common.js';
export * from './schemas/auth.js';
export * from './ui-texts.js';
