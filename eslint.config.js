import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Every folder under features/ is a feature: one added later is kept apart without a list to
// remember.
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The web app's boundaries: a feature is a folder of its own (its api.ts, screens and parts)
 * that imports shared pieces (components, lib) and the contract, never another feature or the
 * app shell; shared pieces import no feature. The app shell wires features together.
 */
const webZones = [
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/features',
    except: [`./${feature}`],
    message:
      'A feature does not import another feature: move the shared piece to components/ or lib/.',
  })),
  {
    target: './apps/web/src/features',
    from: './apps/web/src/app',
    message: 'A feature does not import the app shell: move the shared piece to lib/.',
  },
  {
    target: ['./apps/web/src/components', './apps/web/src/lib'],
    from: ['./apps/web/src/features', './apps/web/src/app'],
    message: 'Shared pieces import no feature and not the app shell.',
  },
  // The customers' portal is a page of its own: none of the staff app's screens, session or
  // client (a customer's 401 must not end a staff session), only its theme; and the staff app
  // none of the portal.
  {
    target: './apps/web/src/portal',
    from: ['./apps/web/src/features', './apps/web/src/components', './apps/web/src/lib'],
    message: 'The portal imports nothing of the staff app: keep the piece in portal/.',
  },
  {
    target: './apps/web/src/portal',
    from: './apps/web/src/app',
    except: ['./theme.ts'],
    message: 'The portal imports nothing of the staff app but its theme.',
  },
  {
    target: [
      './apps/web/src/features',
      './apps/web/src/components',
      './apps/web/src/lib',
      './apps/web/src/app',
    ],
    from: './apps/web/src/portal',
    message: 'The staff app imports nothing of the customers’ portal.',
  },
];

// Every folder under the server's modules/ is a module, found the same way.
const serverModules = readdirSync(new URL('./apps/server/src/modules', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The server's boundaries: a module imports another module only through its public face, the
 * other module's index.ts, types included; what is not exported there stays the module's own.
 */
const serverZones = serverModules.flatMap((module) =>
  serverModules
    .filter((other) => other !== module)
    .map((other) => ({
      target: `./apps/server/src/modules/${module}`,
      from: `./apps/server/src/modules/${other}`,
      except: ['./index.ts'],
      message: `A module imports another only through its index.ts: import from '../${other}/index.js'.`,
    })),
);

/**
 * The server's layers, types included. Its root files (app.ts, services.ts, main.ts, worker.ts,
 * jobs.ts, config.ts, metrics.ts) are the composition root: they build everything and hand each
 * part what it needs, so nothing below them imports them. db/, lib/ and plugins/ sit below every
 * module and import none. A test builds the whole app around the part it tries, so tests may.
 */
const serverLayers = [
  {
    target: './apps/server/src/{modules,db,lib,plugins}/**/!(*.test).ts',
    from: './apps/server/src/*.ts',
    message:
      'Only the composition root imports its own files: take what is needed as an option or argument.',
  },
  {
    target: './apps/server/src/{db,lib,plugins}/**/!(*.test).ts',
    from: './apps/server/src/modules',
    message:
      'db/, lib/ and plugins/ import no module: move the piece down, or have the caller hand it over.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The files an import leads to are parsed as TypeScript too, so cycles through them show.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
            'packages/contract/tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...webZones, ...serverZones, ...serverLayers] },
      ],
    },
  },
  {
    // A route reads its request and answers; what it does with the database is its service's.
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/client*', '**/db/schema*', '**/*.repo*', 'drizzle-orm*', 'pg'],
              message: 'A route reaches the database only through its service.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
