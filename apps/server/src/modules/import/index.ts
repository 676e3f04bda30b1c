/** What other code may use of the import module; the rest is its own. */
export { createImportService } from './import.service.js';
export type { ImportActor, ImportService } from './import.service.js';
