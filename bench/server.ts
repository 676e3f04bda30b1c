/** The built server as a child process, and a signed-in bench user. */
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { API_PATHS, API_PREFIX } from '@kanak/contract';

export const BENCH_USER = { username: 'bench', password: 'Bench@19280' };

export async function startServer(
  databaseUrl: string,
  dataDir: string,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
  /** The server's entry: the build, unless a step runs it from source (with tsx's nodeArgs). */
  entry = 'apps/server/dist/main.js',
) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  };
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${base}${API_PREFIX}${API_PATHS.health}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { base, pid: child.pid!, stop };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('server did not start (run `npm run build` first)');
}

export async function signIn(base: string) {
  const response = await fetch(`${base}${API_PREFIX}${API_PATHS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ USERNAME: BENCH_USER.username, PASSWORD: BENCH_USER.password }),
  });
  const body = (await response.json()) as { accessToken?: string };
  if (!body.accessToken) throw new Error('bench user cannot sign in');
  return body.accessToken;
}

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}
