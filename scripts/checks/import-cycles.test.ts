import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycles in the server, `import type` included: a cycle of types is still two files
 * that cannot be understood, moved or tested apart. The lint's import-x/no-cycle passes over
 * type-only imports, so the graph is walked here, every file's imports read by TypeScript
 * itself (`preProcessFile`: imports, re-exports, `import()`, module augmentations) and resolved
 * as the compiler resolves them, with the server's compiler options.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const server = path.join(root, 'apps/server');

const { options } = ts.getParsedCommandLineOfConfigFile(
  path.join(server, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
)!;

/** Each .ts file under `dir` with the files under `dir` it imports, types included. */
async function importGraph(dir: string) {
  const graph = new Map<string, string[]>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { importedFiles } = ts.preProcessFile(await readFile(file, 'utf8'), true, true);
    const imports = importedFiles
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys))
      .map(({ resolvedModule }) => resolvedModule?.resolvedFileName)
      .filter((to): to is string => to !== undefined && to.startsWith(dir + path.sep));
    graph.set(file, imports);
  }
  return graph;
}

/**
 * The cycles: each set of files that reach one another through their imports (the graph's
 * strongly connected components, by Tarjan's walk), and any file that imports itself.
 */
function cyclesIn(graph: Map<string, string[]>, dir: string) {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (stack.includes(next)) {
        lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || graph.get(file)?.includes(file))
      cycles.push(component.map((member) => path.relative(dir, member)).toSorted());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

describe('the server’s imports', () => {
  it('make no cycle, type-only imports included', async () => {
    const src = path.join(server, 'src');
    const graph = await importGraph(src);
    // The walk sees the imports there are, type-only ones too.
    expect(graph.get(path.join(src, 'app.ts'))).toContain(path.join(src, 'services.ts'));
    expect(graph.get(path.join(src, 'modules/users/users.service.ts'))).toContain(
      path.join(src, 'plugins/types.ts'),
    );
    expect(cyclesIn(graph, src)).toEqual([]);
  });

  it('finds a cycle made only of types', async () => {
    // Two files whose only tie is a type each way, and a third that imports one of them.
    // Its real path, as the compiler resolves imports to.
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cycle-probe-')));
    try {
      await writeFile(
        path.join(dir, 'a.ts'),
        "import type { B } from './b.js';\nexport interface A { b: B }\n",
      );
      await writeFile(path.join(dir, 'b.ts'), "export type { A as B } from './a.js';\n");
      await writeFile(
        path.join(dir, 'c.ts'),
        "import type { A } from './a.js';\nexport const c = (a: A) => a;\n",
      );
      expect(cyclesIn(await importGraph(dir), dir)).toEqual([['a.ts', 'b.ts']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
