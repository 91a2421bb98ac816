import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Loads the Playwright config in a fresh process, as `playwright test` does, and prints the dir. */
async function dataDirOfAConfigLoad(env: Record<string, string>) {
  const script = `import('./playwright.config.ts').then(() => console.log(process.env.E2E_DATA_DIR))`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], {
    env: { ...process.env, E2E_DATA_DIR: '', ...env },
  });
  return stdout.trim();
}

describe('the e2e data directory', () => {
  it('is created for the run and gone once the Playwright process has exited', async () => {
    const dir = await dataDirOfAConfigLoad({});
    expect(path.basename(dir)).toMatch(/^usage-console-e2e-/);
    expect(existsSync(dir)).toBe(false);
  });

  it('is left alone when the caller chose it with E2E_DATA_DIR', async () => {
    const chosen = await mkdtemp(path.join(tmpdir(), 'e2e-chosen-'));
    try {
      expect(await dataDirOfAConfigLoad({ E2E_DATA_DIR: chosen })).toBe(chosen);
      expect(existsSync(chosen)).toBe(true);
    } finally {
      await rm(chosen, { recursive: true, force: true });
    }
  });
});
