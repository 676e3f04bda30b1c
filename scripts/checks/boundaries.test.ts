import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rules that keep the web app's folders apart: a feature imports no other feature
 * and not the app shell; shared pieces import no feature; no import cycles. Each rule is tried
 * on a file that breaks it, as if it were in the tree.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });
const web = (file: string) => path.join(root, 'apps/web/src', file);

async function problems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: web(file) });
  return result!.messages.map((message) => message.ruleId);
}

describe('the web app’s boundaries', () => {
  it('refuses a feature importing another feature or the app shell', async () => {
    expect(
      await problems('features/points/Probe.ts', "export { schemeKeys } from '../schemes/api';"),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await problems(
        'features/points/Probe.ts',
        "export { AppRoutes } from '../../app/AppRoutes';",
      ),
    ).toContain('import-x/no-restricted-paths');
    // Its own folder, shared pieces and the contract are fine.
    expect(
      await problems(
        'features/points/Probe.ts',
        "export { pointsKeys } from './api';\nexport { PATHS } from '../../lib/paths';\nexport { MESSAGES } from '@kanak/contract';",
      ),
    ).toEqual([]);
  }, 60_000);

  it('refuses a shared piece importing a feature', async () => {
    expect(
      await problems('components/Probe.ts', "export { pointsKeys } from '../features/points/api';"),
    ).toContain('import-x/no-restricted-paths');
  }, 60_000);

  it('refuses an import cycle', async () => {
    // Two files that import each other, written for the check and removed after it.
    const folder = web('lib/cycle-probe');
    await mkdir(folder, { recursive: true });
    try {
      const a = "import { b } from './b';\nexport const a = () => b;\n";
      await writeFile(path.join(folder, 'a.ts'), a);
      await writeFile(
        path.join(folder, 'b.ts'),
        "import { a } from './a';\nexport const b = () => a;\n",
      );
      expect(await problems('lib/cycle-probe/a.ts', a)).toContain('import-x/no-cycle');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
