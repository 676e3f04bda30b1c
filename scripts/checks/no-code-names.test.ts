import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from '../../packages/contract/src/index.js';
import { codeNamesIn, fieldsOf, mutations, withValue } from '../../apps/server/test/bad-input.js';

/**
 * Every request schema of the contract (what a screen, the portal or the counter's POS sends),
 * each field tried with every bad value of the bad-input sweep: the refusal a shop assistant
 * reads names the field as its screen does, never by its code name (minSpend, custid,
 * formData.POINTS). The server adds the field's path to a message of zod's own that is no
 * sentence; so does this check.
 */
const requestSchemas = Object.entries(contract).filter(
  (entry): entry is [string, z.ZodType] =>
    /(Request|Form|Query|Params)$/.test(entry[0]) && entry[1] instanceof z.ZodType,
);

/** The message the server answers for a refused body (app.ts's validationMessage). */
const answered = (error: z.ZodError) =>
  contract.refusalMessage(
    error.issues.map(({ path, message }) => ({
      path: path.filter((part) => typeof part !== 'symbol'),
      message,
    })),
  );

describe('refusals name fields as the screens do', () => {
  it('finds the request schemas', () => {
    expect(requestSchemas.length).toBeGreaterThan(30);
  });

  it('shows no code name of a field in any refusal', () => {
    const shown: string[] = [];
    for (const [name, schema] of requestSchemas) {
      const fields = fieldsOf(schema);
      const keys = fields.map((field) => field.path.at(-1)!);
      for (const field of fields) {
        // Every other field missing too: their messages are read as well.
        for (const mutation of mutations(field.maxLength)) {
          const body = withValue({}, field.path, mutation.value);
          const parsed = schema.safeParse(body);
          if (parsed.success) continue;
          const message = answered(parsed.error);
          const names = codeNamesIn(message, keys);
          if (names.length > 0) shown.push(`${name} (${names.join(', ')}): ${message}`);
        }
      }
    }
    expect([...new Set(shown)]).toEqual([]);
  });
});
