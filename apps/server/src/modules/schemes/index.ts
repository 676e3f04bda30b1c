/** What other modules may use of the schemes module; the rest is its own. */
export { schemesRepo } from './schemes.repo.js';
export type { SchemesRepo } from './schemes.repo.js';
export { graceDaysSql, overdueSql, planGracesSql } from './schemes.due.js';
export type { PlanGrace } from './schemes.due.js';
export type { SchemesService } from './schemes.service.js';
export { schemesDueReader } from './schemes.counter.js';
export type { SchemesDueReader } from './schemes.counter.js';
export { schemesImport } from './schemes.import.js';
