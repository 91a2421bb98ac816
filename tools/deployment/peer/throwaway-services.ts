import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SERVICES = path.resolve(import.meta.dirname, '../../../scripts/services.sh');

/** The servers `scripts/services.sh` starts for one run of the suite, and what each exports. */
const VARIABLES = { postgres: 'DATABASE_URI', redis: 'REDIS_URI' } as const;
export type ThrowawayService = keyof typeof VARIABLES;

/**
 * Servers of their own for one run of the suite (`scripts/services.sh start …` on free ports,
 * whatever POSTGRES_PORT or REDIS_PORT say): the variables to reach them (DATABASE_URI,
 * REDIS_URI), and `stop`, which removes them and their data.
 */
export async function startThrowawayServices(names: readonly ThrowawayService[]): Promise<{
  env: Partial<Record<(typeof VARIABLES)[ThrowawayService], string>>;
  stop: () => Promise<void>;
}> {
  if (names.length === 0) return { env: {}, stop: async () => undefined };
  // Directly under the temporary directory: running as root, the script hands the folder to the
  // postgres user, who must be able to reach it (a private parent would stop it).
  const dir = await mkdtemp(path.join(tmpdir(), 'peer-test-peer-services-'));
  const env = { ...process.env, SERVICES_DIR: dir, POSTGRES_PORT: '', REDIS_PORT: '' };
  const stop = async () => {
    await run(SERVICES, ['stop'], { env }).catch(() => undefined);
  };
  // A start that fails leaves its folder, and the logs its message names, for a look.
  const { stdout } = await run(SERVICES, ['start', ...names], { env }).catch((error: unknown) => {
    const stderr = (error as { stderr?: unknown }).stderr;
    throw new Error(`could not start ${names.join(' and ')}: ${String(stderr ?? error).trim()}`);
  });
  const exported: Partial<Record<(typeof VARIABLES)[ThrowawayService], string>> = {};
  for (const name of names) {
    const variable = VARIABLES[name];
    const value = new RegExp(`^export ${variable}=(\\S+)$`, 'm').exec(stdout)?.[1];
    if (!value) {
      await stop();
      throw new Error(`scripts/services.sh start ${name} printed no ${variable}: ${stdout}`);
    }
    exported[variable] = value;
  }
  return { env: exported, stop };
}
