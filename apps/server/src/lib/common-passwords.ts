import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * ~49,000 passwords seen most often in public breaches (zxcvbn's list, lower case; about
 * 18,000 of them are 8 to 15 characters long). ASVS 2.1.7: a new password must not be one of
 * them. Loaded on first use, so the server starts without it.
 */
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(require('@zxcvbn-ts/language-common/src/passwords.json') as string[]);
  return common.has(password.toLowerCase());
}
