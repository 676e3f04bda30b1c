import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * A route's answer written by fast-json-stringify from its zod response schema, for the reads
 * staff make by the hundred (search, statements, the summary's pages): the app's serializer
 * first checks the answer against zod and then stringifies it, which for a statement of a
 * hundred rows costs more than its database reads. Written byte for byte as that serializer
 * writes it: the schema's keys in the schema's order (fast-json-stringify puts required keys
 * first, so none is marked required here; a key the service leaves out is left out, as
 * before), keys not in the schema dropped, strings escaped as JSON.stringify does. What it no
 * longer does is refuse a wrong answer with a 500: these routes' answers are built from their
 * own statements' rows. A schema this cannot write exactly (unions, defaults, transforms,
 * formats) fails the server's start.
 */
export function fastAnswers({
  schema,
  method,
  url,
}: {
  schema: unknown;
  method: string;
  url: string;
}) {
  if (!(schema instanceof z.ZodType)) throw new Error(`${method} ${url}: not a zod schema`);
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' });
  return fastJson(plain(json, `${method} ${url}`) as unknown as Parameters<typeof fastJson>[0]);
}

/** Keywords that only validate: the text written is the same with or without them. */
const CHECKS_ONLY = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'description',
  'title',
]);

type JsonSchema = Record<string, unknown>;

/** The schema as fast-json-stringify takes it, nothing required; refuses what it cannot write. */
function plain(schema: JsonSchema, route: string): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'required' || CHECKS_ONLY.has(key)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [
          name,
          plain(property, route),
        ]),
      );
    } else if (key === 'items') {
      out.items = plain(value as JsonSchema, route);
    } else if (
      (key === 'type' && isPlainType(value)) ||
      (key === 'additionalProperties' && value === false) ||
      key === 'enum' ||
      key === 'const'
    ) {
      out[key] = value;
    } else {
      throw new Error(`${route}: its answer's schema has "${key}", which fastAnswers cannot write`);
    }
  }
  return out;
}

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const isPlainType = (type: unknown) =>
  (typeof type === 'string' && TYPES.has(type)) ||
  (Array.isArray(type) && type.every((one) => TYPES.has(one as string)));
