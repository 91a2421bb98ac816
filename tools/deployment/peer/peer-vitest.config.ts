import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
/**
 * The official suite, run from where it is kept (never copied into the repository):
 * `PEER_SUITE_DIR`, else `../shared/peer/...` beside the checkout (or beside a worktree's parent).
 */
const suiteDir =
  process.env.PEER_SUITE_DIR ??
  [REPO_ROOT, path.dirname(REPO_ROOT)]
    .map((dir) => path.resolve(dir, '../shared/peer/langgraph-api-tests'))
    .find((dir) => existsSync(dir)) ??
  path.resolve(REPO_ROOT, '../shared/peer/langgraph-api-tests');
/**
 * Its real path: Vite names modules by real path, so a `shared/` that is a symbolic link (as a CI
 * clone may have beside it) must be compared through its target.
 */
export const SUITE_DIR = existsSync(suiteDir) ? realpathSync(suiteDir) : suiteDir;
const HARD_CODED_URL = '"http://localhost:2024"';
const STUBS: Record<string, string> = {
  postgres: path.join(import.meta.dirname, 'postgres-stub.ts'),
  'wait-port': path.join(import.meta.dirname, 'wait-port-stub.ts'),
};

/**
 * Points the suite at our server: its one hard-coded `API_URL` line is rewritten while Vite
 * transforms the file (the file on disk stays as it is), and its bare imports, which its own
 * folder (no node_modules) cannot resolve, resolve from this repository.
 */
function peerSuite(apiUrl: string): Plugin {
  return {
    name: 'peer-suite',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer?.startsWith(SUITE_DIR) || /^[./]/.test(source)) return null;
      if (STUBS[source]) return STUBS[source];
      const resolved = await this.resolve(source, path.join(REPO_ROOT, 'package.json'), {
        skipSelf: true,
      });
      return resolved?.id ?? null;
    },
    transform(code, id) {
      if (!id.startsWith(path.join(SUITE_DIR, 'api.test.mts'))) return null;
      if (!code.includes(HARD_CODED_URL)) throw new Error(`${id} no longer has ${HARD_CODED_URL}`);
      return code.replace(HARD_CODED_URL, JSON.stringify(apiUrl));
    },
  };
}

export default defineConfig({
  root: SUITE_DIR,
  // Vite's cache stays out of the shared folder.
  cacheDir: '/tmp/peer-test-peer-vite-cache',
  plugins: [peerSuite(process.env.PEER_API_URL ?? 'http://127.0.0.1:6600')],
  test: {
    include: ['api.test.mts'],
    setupFiles: [path.join(import.meta.dirname, 'auth-header-setup.ts')],
    testTimeout: 15_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    outputFile: { json: process.env.VITEST_JSON_REPORT ?? '/tmp/peer-test-peer-report.json' },
  },
});
