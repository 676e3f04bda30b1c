import { readFileSync } from 'node:fs';

/** The server package's name and version; the same relative path from src/lib and dist/lib. */
const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

export const APP_VERSION: string = (
  JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }
).version;
