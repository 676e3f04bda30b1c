import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web app reads every answer with the type of the contract's response schema, the one the
 * server's route declares: `api.post<Answer<typeof customerResponse>>(...)`. A hand-written
 * answer type, or an `as` cast of what came back, would let the two sides drift apart unseen.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const features = path.join(root, 'apps/web/src/features');

/** Every call's type argument: `api.get<...>(` / `api.post<...>(`, balanced over `<>`. */
export function answerTypes(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\bapi\.(?:get|post|put|patch|delete)\s*</g)) {
    let depth = 1;
    let at = match.index + match[0].length;
    const start = at;
    while (at < source.length && depth > 0) {
      if (source[at] === '<') depth += 1;
      else if (source[at] === '>' && source[at - 1] !== '=') depth -= 1;
      at += 1;
    }
    found.push(
      source
        .slice(start, at - 1)
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  return found;
}

/** What is wrong in a feature's api.ts: untyped calls, hand-written answer types, casts. */
export function answerProblems(source: string): string[] {
  const problems: string[] = [];
  const calls = source.match(/\bapi\.(?:get|post|put|patch|delete)\b/g) ?? [];
  const typed = answerTypes(source);
  if (typed.length < calls.length) problems.push('a call without the type of its answer');
  for (const type of typed) {
    const fromContract =
      /^Answer<typeof [a-z]\w*Response>$/.test(type) ||
      /^z\.infer<typeof [a-z]\w*Response>$/.test(type) ||
      /^[A-Z]\w*Response$/.test(type);
    if (!fromContract) problems.push(`an answer typed by hand: ${type}`);
  }
  for (const declared of source.matchAll(
    /\b(?:interface (\w*(?:Response|Envelope)\w*)|type (\w*(?:Response|Envelope)\w*)\s*=(?! Answer<))/g,
  )) {
    problems.push(`a hand-written answer type: ${declared[1] ?? declared[2]}`);
  }
  for (const cast of source.matchAll(/\bas (?!const\b)[\w[\]'".<>]+/g)) {
    problems.push(`a cast: ${cast[0]}`);
  }
  return problems;
}

describe("the web app's api.ts files", () => {
  const files = readdirSync(features, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(features, entry.name, 'api.ts'))
    .filter((file) => {
      try {
        readFileSync(file);
        return true;
      } catch {
        return false;
      }
    })
    // The customers' portal reads its answers the same way.
    .concat(path.join(root, 'apps/web/src/portal/api.ts'));

  it('exist for the features that call the API', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files.map((file) => [path.relative(root, file), file]))(
    '%s types every answer from the contract, with no cast',
    (_name, file) => {
      // Comments may say anything.
      const source = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      expect(answerProblems(source)).toEqual([]);
    },
  );

  it('the check bites: a hand-written envelope, an inline answer type and a cast are found', () => {
    expect(
      answerProblems(`
        interface ImagesResponse extends Envelope { data?: ImageRecord[] }
        const a = await api.post<Envelope & { data?: StatementRow[] }>(API_PATHS.x, filter);
        const b = await api.get(API_PATHS.y);
        const c = (await api.post<Answer<typeof imagesResponse>>(API_PATHS.z)).data as Foo;
        const keys = ['a'] as const;
      `),
    ).toEqual([
      'a call without the type of its answer',
      'an answer typed by hand: Envelope & { data?: StatementRow[] }',
      'a hand-written answer type: ImagesResponse',
      'a cast: as Foo',
    ]);
  });
});
