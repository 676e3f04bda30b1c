import { z } from 'zod';

/**
 * The bad-input sweep's case generator: every field of a route's zod schema, tried with every
 * kind of bad value a client, a scanner or a careless integration can send.
 */

/** A mutation that removes the field instead of setting it. */
export const MISSING = Symbol('missing');

export interface Mutation {
  label: string;
  value: unknown;
}

export interface Field {
  /** Where the field sits in the body, e.g. ['formData', 'POINTS']. */
  path: string[];
  /** The schema's maximum length, when it has one: "over the limit" goes one past it. */
  maxLength?: number;
  /** A number (or digits in text) by the schema: an id, an amount, points. */
  numeric: boolean;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  maxLength?: number;
  anyOf?: JsonSchema[];
}

/** Every property of an object schema, nested objects included (their own properties too). */
export function fieldsOf(schema: z.ZodType): Field[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const walk = (node: JsonSchema, path: string[]): Field[] =>
    Object.entries(node.properties ?? {}).flatMap(([name, child]) => [
      { path: [...path, name], maxLength: maxLengthOf(child), numeric: isNumeric(child) },
      ...walk(child, [...path, name]),
    ]);
  return walk(json, []);
}

const isNumeric = (node: JsonSchema): boolean =>
  [node.type].flat().some((type) => type === 'number' || type === 'integer') ||
  (node.anyOf?.some(isNumeric) ?? false);

const maxLengthOf = (node: JsonSchema): number | undefined =>
  node.maxLength ?? node.anyOf?.map(maxLengthOf).find((max) => max !== undefined);

/** The values every field is tried with. `maxLength` sets where "over the limit" starts. */
export function mutations(maxLength = 1000): Mutation[] {
  const over = maxLength + 1;
  return [
    // Shape and type
    { label: 'missing', value: MISSING },
    { label: 'null', value: null },
    { label: 'boolean', value: true },
    { label: 'object', value: {} },
    { label: 'empty array', value: [] },
    { label: 'array of text', value: ['1', '2'] },
    // Text that is not there
    { label: 'empty text', value: '' },
    { label: 'only spaces', value: '   ' },
    // Numbers: negative, fractional, beyond the database's integers, beyond exact doubles
    { label: 'number', value: 12345 },
    { label: 'zero', value: 0 },
    { label: 'negative', value: -1 },
    { label: 'fraction', value: 1.5 },
    { label: 'tiny fraction', value: 5e-324 },
    { label: 'beyond integer column', value: 2 ** 31 },
    { label: 'beyond exact integers', value: 2 ** 53 + 2 },
    { label: 'beyond bigint column', value: 1e20 },
    { label: 'largest double', value: Number.MAX_VALUE },
    // Numbers as text, including the NaN-like ones JSON cannot carry as numbers
    { label: 'text NaN', value: 'NaN' },
    { label: 'text Infinity', value: 'Infinity' },
    { label: 'text negative', value: '-1' },
    { label: 'text fraction', value: '1.5' },
    { label: 'text exponent', value: '1e3' },
    { label: 'text hex', value: '0x1F' },
    { label: 'text beyond integer column', value: '2147483648' },
    { label: 'text beyond bigint column', value: '99999999999999999999' },
    // Dates that do not exist or are not YYYY-MM-DD
    { label: 'date 30 February', value: '2025-02-30' },
    { label: 'date 29 February of a common year', value: '2023-02-29' },
    { label: 'date month 13', value: '2025-13-01' },
    { label: 'date month 0', value: '2025-00-10' },
    { label: 'date day 0', value: '2025-01-00' },
    { label: 'date year 0', value: '0000-01-01' },
    { label: 'date year 100', value: '0100-01-01' },
    { label: 'date year 9999', value: '9999-12-31' },
    { label: 'date year 10000', value: '10000-01-01' },
    { label: 'date unpadded', value: '2025-1-5' },
    { label: 'date DD-MM-YYYY', value: '05-01-2025' },
    { label: 'date with time', value: '2025-01-05T10:00:00Z' },
    // Unicode: scripts, emoji, and what PostgreSQL text cannot hold (NUL, unpaired surrogates)
    { label: 'Devanagari', value: 'श्री गणेश ज्वेलर्स' },
    { label: 'emoji', value: '💍👑✨' },
    { label: 'NUL character', value: 'a\u0000b' },
    { label: 'unpaired surrogate', value: 'a\uD800b' },
    { label: 'right-to-left override', value: '\u202Eabc' },
    { label: 'zero-width space', value: '\u200B' },
    { label: 'control characters', value: '\u0007\u001B[31m' },
    // SQL and HTML meta-characters
    { label: 'SQL quote', value: "' OR '1'='1" },
    { label: 'SQL statement', value: "x'); DROP TABLE customers; --" },
    { label: 'SQL wildcards', value: '%_\\' },
    { label: 'HTML script', value: '<script>alert(1)</script>' },
    { label: 'HTML img onerror', value: '<img src=x onerror=alert(1)>' },
    // Too long
    { label: 'over the limit', value: 'x'.repeat(over) },
    { label: 'digits over the limit', value: '9'.repeat(over) },
    { label: 'multi-byte over the limit', value: '₹'.repeat(over) },
    { label: 'very long', value: 'x'.repeat(100_000) },
  ];
}

/**
 * What a query string can carry: text, or a repeated key (an array of text). Not half an
 * emoji: a URL has no way to say it (it arrives as U+FFFD).
 */
export function queryMutations(maxLength?: number): Mutation[] {
  return mutations(maxLength).filter(
    ({ label, value }) =>
      label !== 'unpaired surrogate' &&
      (value === MISSING ||
        typeof value === 'string' ||
        (Array.isArray(value) && value.length > 0)),
  );
}

/** A copy of `base` with the value at `path` replaced, or removed for MISSING. */
export function withValue(base: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const copy = { ...(base as Record<string, unknown>) };
  const next = rest.length === 0 ? value : withValue(copy[head], rest, value);
  if (next === MISSING) delete copy[head];
  else copy[head] = next;
  return copy;
}

/**
 * The field names `message` shows as code, out of a schema's `keys`: a key spelled as no word
 * is (camelCase such as minSpend, digits such as rate22k, an upper-case run such as MOBILENO,
 * an underscore), a key opening a sentence in lower case ("custid must be a number."), or the
 * framework's own "path: problem" form. Shop staff read these messages: a field is named as its
 * screen names it.
 */
export function codeNamesIn(message: string, keys: Iterable<string>): string[] {
  const found = new Set<string>();
  const framework = /(?:^|[.!?]\s+)([A-Za-z_]\w*(?:\.\w+)*):\s/.exec(message);
  if (framework) found.add(framework[1]!);
  for (const key of new Set(keys)) {
    const word = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const codeLike = /[a-z][A-Z]|\d|_|^[A-Z]{2,}$/.test(key);
    const shown = codeLike
      ? new RegExp(`(^|[^\\w])${word}($|[^\\w])`).test(message)
      : /^[a-z]/.test(key) && new RegExp(`(^|[.!?]\\s+)${word}\\b`).test(message);
    if (shown) found.add(key);
  }
  return [...found];
}
