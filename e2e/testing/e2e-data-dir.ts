import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const E2E_DATA_DIR_PREFIX = 'usage-console-e2e-';

/**
 * The data directory of one e2e run: `E2E_DATA_DIR` when set (kept: the caller owns it), else a
 * fresh temporary one that is removed when the Playwright process exits. Removal waits for the
 * process exit, not for `globalTeardown`: Playwright runs global teardown before it stops the
 * web server, which still has its databases open in the directory then.
 */
export function e2eDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.E2E_DATA_DIR;
  if (given) return given;
  const created = mkdtempSync(path.join(tmpdir(), E2E_DATA_DIR_PREFIX));
  process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  // Workers load the config again; they inherit the variable and so agree on the directory.
  env.E2E_DATA_DIR = created;
  return created;
}
