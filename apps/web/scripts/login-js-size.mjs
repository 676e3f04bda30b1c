// Sums the gzip size of the JavaScript the login page loads (at most 180 KB):
// the entry chunk of dist/index.html, the login page's lazy chunk, and every chunk they
// import statically. Run after `vite build`: `node apps/web/scripts/login-js-size.mjs [dist]`
// (dist: the build's folder, apps/web/dist by default).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_KB = 180;
const dist = process.argv[2]
  ? resolve(process.argv[2])
  : resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const assets = join(dist, 'assets');

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
const loginChunk = readdirSync(assets).find((file) => /^LoginPage-.*\.js$/.test(file));
if (!entry || !loginChunk)
  throw new Error('Build the web app first (entry or LoginPage chunk not found).');

const seen = new Set();
const visit = (file) => {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(join(assets, file), 'utf8');
  // Static imports only: `import … from "./x.js"` and `import "./x.js"`, not `import("./x.js")`.
  for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(match[1]);
};
visit(entry);
visit(loginChunk);

let total = 0;
for (const file of [...seen].sort()) {
  const size = gzipSync(readFileSync(join(assets, file))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const totalKb = total / 1024;
console.log(`${totalKb.toFixed(1).padStart(7)} KB  gzip in total (limit ${LIMIT_KB} KB)`);
if (totalKb > LIMIT_KB) process.exitCode = 1;
