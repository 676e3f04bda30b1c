import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every installed package runs on the oldest Node the project promises (package.json's
 * `engines`): one that asks for a newer Node may work today and break on the next patch, and
 * `npm install` warns about it on every machine.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as unknown;

describe('the installed packages', () => {
  it("all admit the oldest Node of package.json's engines", () => {
    const own = read('package.json') as { engines: { node: string } };
    const oldest = semver.minVersion(own.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const lock = read('package-lock.json') as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([where]) => where.includes('node_modules/'))
      .flatMap(([where, entry]) => {
        // A few old packages list engines as an array of strings: no range to hold to.
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        if (!range || semver.satisfies(oldest, range)) return [];
        return [`${where}@${entry.version} wants node ${range}`];
      });
    expect(refusing).toEqual([]);
  });
});
