import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS, API_PREFIX, MEMBER_API_PATHS } from '@kanak/contract';
import { noticeShop, type NoticeShop } from '../../../test/notices.js';

/**
 * The API's OpenAPI document as others read it: Redocly's linter with the repository's
 * redocly.yaml finds nothing in it, and a client generated from it by openapi-typescript
 * compiles against the real answers of the app, which also pass the document's own response
 * schemas (ajv).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const TODAY = '2026-03-10';
const MOBILE = '9822200051';

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId?: string }>>;
}

let shop: NoticeShop;
let served: string;
let doc: OpenApiDocument;

beforeAll(async () => {
  shop = await noticeShop({ clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
  await shop.savePanel(1);
  served = (await shop.app.inject({ method: 'GET', url: `${API_PREFIX}/openapi.json` })).body;
  doc = JSON.parse(served) as OpenApiDocument;
});
afterAll(async () => {
  await shop?.close();
});

describe("the OpenAPI document, to Redocly's linter", () => {
  it('has neither an error nor a warning under the recommended rules (redocly.yaml)', async () => {
    const config = await loadConfig({ configPath: path.join(root, 'redocly.yaml') });
    const problems = await lintFromString({
      source: served,
      absoluteRef: path.join(root, 'openapi.json'),
      config,
    });
    const found = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ` +
        problem.message,
    );
    expect(found).toEqual([]);
  });
});

/** The JSON a call answers, and where the document describes it. */
interface Answer {
  /** The operationId, also the name the program below gives the answer's type. */
  operationId: string;
  status: number;
  body: unknown;
  schemaPointer: string;
}

const pointerTo = (...segments: string[]) =>
  segments.map((segment) => '/' + segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('');

/**
 * Makes the call and notes its answer, with the schema of its status (200 or 4XX) in the
 * document under the operation the document names for its method and path.
 */
async function answerOf(
  method: 'GET' | 'POST',
  template: string,
  call: () => Promise<{ statusCode: number; body: string }>,
): Promise<Answer> {
  const response = await call();
  const documented = `${API_PREFIX}${template}`.replace(/:(\w+)/g, '{$1}');
  const operationId = doc.paths[documented]?.[method.toLowerCase()]?.operationId;
  expect(operationId, `${method} ${documented} has an operationId`).toBeTruthy();
  const status = response.statusCode === 200 ? '200' : `${String(response.statusCode)[0]}XX`;
  return {
    operationId: operationId!,
    status: response.statusCode,
    body: JSON.parse(response.body) as unknown,
    schemaPointer: pointerTo(
      'paths',
      documented,
      method.toLowerCase(),
      'responses',
      status,
      'content',
      'application/json',
      'schema',
    ),
  };
}

/** The real answers: a customer's own calls with a member token, and a few of the staff's. */
async function realAnswers(): Promise<Answer[]> {
  const custid = await shop.customer(MOBILE, 'Nandini Rao');
  const { data } = await shop.call<{ data: { schemeid: number } }>(API_PATHS.generateScheme, {
    custid,
    mobileno: MOBILE,
    custname: 'Nandini Rao',
    startdt: TODAY,
    amount: 2500,
  });
  const schemeid = data.schemeid;
  await shop.call(API_PATHS.activateScheme, { schemeid, date: TODAY, mode: 'upi' });
  await shop.call(API_PATHS.updatePoints, {
    formData: { MOBILENO: MOBILE, POINTS: '400', INVDATE: TODAY, CASHCR: 'CR', NARRATION: '' },
  });

  const api = (template: string, params: Record<string, string | number> = {}) =>
    Object.entries(params).reduce(
      (url, [name, value]) => url.replace(`:${name}`, String(value)),
      `${API_PREFIX}${template}`,
    );
  const getWith = (token: string) => (url: string) =>
    shop.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  const answers: Answer[] = [];
  const otp = MEMBER_API_PATHS.memberOtp;
  answers.push(
    await answerOf('POST', otp, () =>
      shop.app.inject({ method: 'POST', url: api(otp), payload: { mobile: MOBILE } }),
    ),
  );
  const code = await vi.waitFor(() => {
    const sent = shop.fake.messages.find((message) => message.mobile === MOBILE);
    expect(sent).toBeDefined();
    return /(\d{6})/.exec(sent!.text)![1]!;
  });
  const verify = MEMBER_API_PATHS.memberVerify;
  const verified = await answerOf('POST', verify, () =>
    shop.app.inject({ method: 'POST', url: api(verify), payload: { mobile: MOBILE, code } }),
  );
  answers.push(verified);
  const member = getWith((verified.body as { data: { token: string } }).data.token);

  const { memberMe, memberPoints, memberScheme } = MEMBER_API_PATHS;
  answers.push(
    await answerOf('GET', memberMe, () => member(api(memberMe))),
    await answerOf('GET', memberPoints, () => member(api(memberPoints))),
    await answerOf('GET', memberScheme, () => member(api(memberScheme, { schemeid }))),
    // A refusal is described too: a staff token on a member call.
    await answerOf('GET', memberMe, () => getWith(shop.token)(api(memberMe))),
    await answerOf('GET', API_PATHS.dashboard, () =>
      shop.inject({ method: 'GET', url: api(API_PATHS.dashboard) }),
    ),
    await answerOf('POST', API_PATHS.collectionsReport, () =>
      shop.post(api(API_PATHS.collectionsReport), { from: TODAY, to: TODAY }),
    ),
    await answerOf('GET', API_PATHS.branches, () =>
      shop.inject({ method: 'GET', url: api(API_PATHS.branches) }),
    ),
  );
  return answers;
}

/**
 * A program that uses the generated client's types: each real answer as a value of the type the
 * client gives it (an unknown field, a missing one or a wrong type does not compile), and the
 * dashboard's figures by mode as named properties.
 */
function programOf(answers: Answer[]) {
  const values = answers.map(
    (answer, i) =>
      `export const answer${i}: Json<'${answer.operationId}', ${answer.status === 200 ? 200 : `'${String(answer.status)[0]}XX'`}> = ` +
      `${JSON.stringify(answer.body)};`,
  );
  return [
    `import type { operations, paths } from './api.js';`,
    `type Json<Id extends keyof operations, Status extends keyof operations[Id]['responses']> =`,
    `  operations[Id]['responses'][Status] extends { content: { 'application/json': infer T } }`,
    `    ? T`,
    `    : never;`,
    ...values,
    `type Me = paths['/api/member/me']['get']['responses'][200]['content']['application/json'];`,
    `export const balance = (me: Me): number => me.data.points.balance;`,
    `type Dashboard = Json<'dashboard', 200>;`,
    `export const upi = (d: Dashboard): number => d.data.today.collections.byMode.upi;`,
    // The types are the document's, not anything at all: these two must not compile.
    `// @ts-expect-error -- gold is no mode of payment`,
    `export const gold = (d: Dashboard): number => d.data.today.collections.byMode.gold;`,
    `// @ts-expect-error -- a member token is no answer of the dashboard`,
    `export const wrong: Dashboard = { success: true, data: { token: 'x' } };`,
    '',
  ].join('\n');
}

/** The TypeScript compiler's complaints about the program, one line each. */
function typeErrors(dir: string, file: string) {
  const program = ts.createProgram({
    rootNames: [path.join(dir, file)],
    options: {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      // The client's types need no more of the standard library than ES5's, which is not
      // ours to check: a second or two less.
      lib: ['lib.es5.d.ts'],
      types: [],
      skipLibCheck: true,
    },
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').slice(0, 600)}`;
  });
}

describe('a client generated from the document (openapi-typescript)', () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('compiles against real answers of the app, which pass the response schemas', async () => {
    const answers = await realAnswers();
    expect(answers.map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200, 401, 200, 200, 200,
    ]);
    // Answers with something in them: the points, the installment, the day's takings by mode.
    const [, , me, points, passbook, , dashboard] = answers.map((answer) => answer.body);
    expect(me).toMatchObject({ data: { points: { balance: 400 } } });
    expect(points).toMatchObject({ total: 1 });
    expect(passbook).toMatchObject({ data: { rows: [{ no: 1, amount: 2500 }] } });
    expect(dashboard).toMatchObject({
      data: { today: { collections: { byMode: { upi: 2500, cash: 0 } } } },
    });

    // Every answer against its schema in the document, as any JSON Schema validator reads it.
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    // The document's own fields, which hold the schemas: no keywords of JSON Schema's.
    ajv.addVocabulary(['openapi', 'info', 'servers', 'paths', 'components', 'tags']);
    ajv.addSchema(JSON.parse(served) as object, 'openapi.json');
    const invalid = answers.flatMap((answer) => {
      const where = `${answer.operationId} ${answer.status}`;
      try {
        const validate = ajv.compile({ $ref: `openapi.json#${answer.schemaPointer}` });
        if (validate(answer.body)) return [];
        const errors = (validate.errors ?? []).map(
          (error: ErrorObject) => `${error.instancePath} ${error.message}`,
        );
        return [`${where}: ${errors.join('; ')}`];
      } catch (error) {
        // A schema a strict validator refuses, such as one requiring a property it never defines.
        return [`${where}: ${(error as Error).message}`];
      }
    });

    // The client's types, from the document as served, and a program that uses them.
    const client = astToString(await openapiTS(JSON.parse(served) as never, { silent: true }));
    dir = await mkdtemp(path.join(os.tmpdir(), 'kanak-openapi-client-'));
    await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }');
    await writeFile(path.join(dir, 'api.ts'), client);
    await writeFile(path.join(dir, 'program.ts'), programOf(answers));
    expect({ invalid, typeErrors: typeErrors(dir, 'program.ts') }).toEqual({
      invalid: [],
      typeErrors: [],
    });
  });
});
