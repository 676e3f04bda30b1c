import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Secrets {
  jwtSecret: string;
  dataKey: string;
  /** Password of the embedded PostgreSQL's superuser; unused with DATABASE_URL. */
  embeddedDbPassword: string;
}

const generators: Record<keyof Secrets, () => string> = {
  jwtSecret: () => randomBytes(48).toString('base64url'),
  dataKey: () => randomBytes(32).toString('hex'),
  embeddedDbPassword: () => randomBytes(24).toString('base64url'),
};

/**
 * Secrets come from the environment; whatever is missing is generated once and kept in
 * DATA_DIR/secrets.json (mode 0600), so tokens and encrypted fields survive a restart.
 * Several instances on one external database must share them through the environment.
 */
export async function resolveSecrets(dataDir: string, fromEnv: Partial<Secrets>): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Secrets>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let generated = false;
  const secrets = {} as Secrets;
  for (const name of Object.keys(generators) as (keyof Secrets)[]) {
    const value = fromEnv[name] ?? stored[name];
    if (value) {
      secrets[name] = value;
    } else {
      secrets[name] = stored[name] = generators[name]();
      generated = true;
    }
  }
  if (generated) {
    // Only generated values are written: secrets given in the environment stay out of the file.
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return secrets;
}
