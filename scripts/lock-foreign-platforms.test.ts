import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

interface LockEntry {
  resolved?: string;
  integrity?: string;
  optional?: boolean;
}

/** The key order npm writes for an entry with no download (what `npm install` rewrites to). */
const NPM_ORDER = ['version', 'cpu', 'dev', 'libc', 'optional', 'os'];

describe('package-lock.json and scripts/lock-foreign-platforms.mjs', () => {
  it("keeps the foreign-platform entries in npm's own key order", async () => {
    const lock = JSON.parse(await readFile('package-lock.json', 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const foreign = Object.entries(lock.packages).filter(
      ([, entry]) => entry.optional && !entry.resolved && !entry.integrity,
    );
    expect(foreign.length).toBeGreaterThan(0);
    for (const [name, entry] of foreign) {
      const keys = Object.keys(entry);
      expect(keys, name).toEqual(NPM_ORDER.filter((key) => keys.includes(key)));
    }
  });

  it('is a fixed point of the script: running it changes no byte', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'lock-'));
    try {
      const copy = path.join(dir, 'package-lock.json');
      await copyFile('package-lock.json', copy);
      await run(process.execPath, ['scripts/lock-foreign-platforms.mjs', copy]);
      expect(await readFile(copy, 'utf8')).toBe(await readFile('package-lock.json', 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
