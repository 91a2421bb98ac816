import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SERVICES = path.resolve(import.meta.dirname, '../../../scripts/services.sh');

/**
 * A Postgres of its own for one run of the suite (`scripts/services.sh start postgres` on a free
 * port, whatever POSTGRES_PORT says): its URI, and `stop`, which removes it and its data.
 */
export async function startThrowawayPostgres(): Promise<{
  uri: string;
  stop: () => Promise<void>;
}> {
  // Directly under the temporary directory: running as root, the script hands the folder to the
  // postgres user, who must be able to reach it (a private parent would stop it).
  const dir = await mkdtemp(path.join(tmpdir(), 'peer-test-peer-postgres-'));
  const env = { ...process.env, SERVICES_DIR: dir, POSTGRES_PORT: '' };
  const stop = async () => {
    await run(SERVICES, ['stop'], { env }).catch(() => undefined);
  };
  // A start that fails leaves its folder, and the logs its message names, for a look.
  const { stdout } = await run(SERVICES, ['start', 'postgres'], { env }).catch((error: unknown) => {
    const stderr = (error as { stderr?: unknown }).stderr;
    throw new Error(`could not start a Postgres: ${String(stderr ?? error).trim()}`);
  });
  const uri = /^export DATABASE_URI=(\S+)$/m.exec(stdout)?.[1];
  if (!uri) {
    await stop();
    throw new Error(`scripts/services.sh start postgres printed no DATABASE_URI: ${stdout}`);
  }
  return { uri, stop };
}
