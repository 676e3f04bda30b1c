// Sums the gzip size of the JavaScript a sign-in page loads: the entry chunk of its HTML page,
// the sign-in screen's lazy chunk, and every chunk they import statically. Run after
// `vite build`:
//   node apps/web/scripts/login-js-size.mjs [dist] [--page my/index.html --chunk SignInPage --limit 120]
// dist: the build's folder (apps/web/dist by default). Without options it measures the staff
// app's sign-in page (index.html, LoginPage, at most 180 KB).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    page: { type: 'string', default: 'index.html' },
    chunk: { type: 'string', default: 'LoginPage' },
    limit: { type: 'string', default: '180' },
  },
});
const LIMIT_KB = Number(values.limit);
const dist = positionals[0]
  ? resolve(positionals[0])
  : resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const assets = join(dist, 'assets');

const html = readFileSync(join(dist, values.page), 'utf8');
const entry = /<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
const chunkName = new RegExp(`^${values.chunk}-[^.]*\\.js$`);
const pageChunk = readdirSync(assets).find((file) => chunkName.test(file));
if (!entry || !pageChunk)
  throw new Error(
    `Build the web app first (entry of ${values.page} or ${values.chunk} chunk not found).`,
  );

const seen = new Set();
const visit = (file) => {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(join(assets, file), 'utf8');
  // Static imports only: `import … from "./x.js"` and `import "./x.js"`, not `import("./x.js")`.
  for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(match[1]);
};
visit(entry);
visit(pageChunk);

let total = 0;
for (const file of [...seen].sort()) {
  const size = gzipSync(readFileSync(join(assets, file))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const totalKb = total / 1024;
console.log(`${totalKb.toFixed(1).padStart(7)} KB  gzip in total (limit ${LIMIT_KB} KB)`);
if (totalKb > LIMIT_KB) process.exitCode = 1;
