/**
 * `npm run bench -- --profile <request>`: where a request's server time goes. Runs the built
 * server under `--cpu-prof` at 8 connections and sums the profile's self time by where the code
 * lives (Kanak, each package, Node's internals, GC, idle).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export const PROFILE_DIR = new URL('./results/profiles/', import.meta.url).pathname;

export async function newestProfile() {
  const names = (await readdir(PROFILE_DIR)).filter((name) => name.endsWith('.cpuprofile'));
  const newest = names.sort().at(-1);
  if (!newest) throw new Error(`no profile in ${PROFILE_DIR}`);
  return path.join(PROFILE_DIR, newest);
}

export async function summarizeProfile(file: string, top = 15) {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const micros = profile.timeDeltas[i] ?? 0;
    total += micros;
    add(byPlace, place(node.callFrame.url, node.callFrame.functionName), micros);
    const where = node.callFrame.url.split('/node_modules/').at(-1) || node.callFrame.url;
    add(byFunction, `${node.callFrame.functionName || '(anonymous)'} ${where}`, micros);
  });
  const share = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`);
  return [
    `${file} (${(total / 1e6).toFixed(1)} s sampled)`,
    'self time by place:',
    ...share(byPlace),
    'self time by function:',
    ...share(byFunction),
  ].join('\n');
}

function place(url: string, functionName: string) {
  if (!url) return functionName; // (idle), (garbage collector), (program), native code
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  return url.includes('/apps/server/') || url.includes('/packages/contract/') ? 'kanak' : url;
}

function add(map: Map<string, number>, key: string, micros: number) {
  map.set(key, (map.get(key) ?? 0) + micros);
}
