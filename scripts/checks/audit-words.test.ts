import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS } from '../../packages/contract/src/audit-words.js';

/**
 * Every action the server writes to the audit trail has words on the Audit Trail screen: an
 * action without them would show its code ("scheme.onlineOrder") to the manager reading it.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const server = path.join(root, 'apps/server/src');

/** The actions named on a line that sets `action:` (either side of a condition counts). */
export function actionsIn(source: string): string[] {
  return source
    .split('\n')
    .filter((line) => /\baction:/.test(line))
    .flatMap((line) => [...line.matchAll(/'([a-z][A-Za-z]*\.[A-Za-z-]+)'/g)].map((m) => m[1]!));
}

describe('audit words', () => {
  it('finds the actions on either side of a condition', () => {
    expect(
      actionsIn(`  action: paid ? 'scheme.onlinePayment' : 'scheme.onlineOverpayment',`),
    ).toEqual(['scheme.onlinePayment', 'scheme.onlineOverpayment']);
  });

  it('has words for every action the server writes', () => {
    const files = readdirSync(server, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const actions = new Set(
      files.flatMap((file) => actionsIn(readFileSync(path.join(server, file), 'utf8'))),
    );
    expect(actions.size).toBeGreaterThan(30);
    expect([...actions].filter((action) => !(action in AUDIT_ACTION_LABELS)).sort()).toEqual([]);
  });
});
