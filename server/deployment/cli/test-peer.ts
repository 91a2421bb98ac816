import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { parseCliArgs, runCli } from '@server/cli/cli-args';
import { loadConfig } from '@server/config';
import { createDeploymentService } from '../deployment-service';
import { SUITE_DIR } from '../peer/peer-vitest.config';

/**
 * `npm run test:peer`: serves the deployment API at the root of a free port of 6600-6699 with
 * the official suite's graphs/langgraph.json and the test-only truncate route, runs the suite
 * with vitest against it, and prints passed / failed / skipped (exit 1 on any failure but the
 * expected ones).
 */
const PORTS = { first: 6600, last: 6699 };
/**
 * The address the suite's generative-UI test writes into the HTML it expects
 * (`<script src="http://localhost:2024/ui/agent-alias/entrypoint.js" ...>`): used when free.
 */
const SUITE_PORT = 2024;

/**
 * Tests that cannot pass on another port, and why: reported but they do not fail the command
 * (any other failure does).
 */
const OFF_SUITE_PORT_FAILURES: Record<string, string> = {
  'generative ui': `expects the UI bundle at http://localhost:${SUITE_PORT}, which was taken`,
};

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

async function freePort(): Promise<number> {
  if (await isFree(SUITE_PORT)) return SUITE_PORT;
  for (let port = PORTS.first; port <= PORTS.last; port++) {
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${PORTS.first}-${PORTS.last}`);
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

const USAGE = `Usage: npm run test:peer -- [-t NAME]
Runs the official LangGraph API suite (PEER_SUITE_DIR, else shared/peer/langgraph-api-tests beside
the clone) against the deployment API served on port ${SUITE_PORT} (the suite's), or when taken on a free
one of ${PORTS.first}-${PORTS.last} (its generative-UI test then fails, as expected).
  -t, --test-name-pattern NAME  only the tests whose name matches (vitest -t)
Exit codes: 0 passed (known failures listed), 1 a test failed or the suite is missing, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    'test-name-pattern': { type: 'string', short: 't' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const only = values['test-name-pattern'];
  if (!existsSync(SUITE_DIR)) {
    throw new Error(
      `the suite is not at ${SUITE_DIR}: set PEER_SUITE_DIR=/path/to/langgraph-api-tests`,
    );
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'peer-test-peer-'));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    LANGGRAPH_CONFIG: path.join(SUITE_DIR, 'graphs/langgraph.json'),
    DEPLOYMENT_TEST_ROUTES: 'true',
    LOG_LEVEL: 'silent',
  });
  const service = await createDeploymentService(loadConfig());
  // The graphs' schemas are parsed in the background; the suite asks for them in its first tests.
  await service.ready?.();
  const port = await freePort();
  const server = serve({ fetch: service.app.fetch, hostname: '127.0.0.1', port });
  const apiUrl = port === SUITE_PORT ? `http://localhost:${port}` : `http://127.0.0.1:${port}`;
  const expectedFailures: Record<string, string> =
    port === SUITE_PORT ? {} : OFF_SUITE_PORT_FAILURES;
  console.log(`test:peer: serving ${SUITE_DIR}/graphs/langgraph.json at ${apiUrl}`);

  const report = path.join(dataDir, 'vitest.json');
  const config = path.join(import.meta.dirname, '../peer/peer-vitest.config.ts');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      'npx',
      [
        'vitest',
        'run',
        '--config',
        config,
        '--reporter=default',
        '--reporter=json',
        ...(only === undefined ? [] : ['-t', only]),
      ],
      {
        stdio: 'inherit',
        // Without CI: under CI the suite spawns its own server (`tsx ./tests/utils.server.mts`),
        // a file only the official repository has; ours is already listening.
        env: { ...process.env, CI: '', PEER_API_URL: apiUrl, VITEST_JSON_REPORT: report },
      },
    );
    child.on('exit', resolve);
  });
  await new Promise((resolve) => server.close(resolve));
  await service.close();

  const json = JSON.parse(await readFile(report, 'utf8').catch(() => '{}')) as Partial<VitestJson>;
  const failed = (json.testResults ?? [])
    .flatMap((file) => file.assertionResults)
    .filter((test) => test.status === 'failed')
    .map((test) => test.fullName);
  const unexpected = failed.filter((name) => !(name in expectedFailures));
  failed.forEach((name) => {
    const why = expectedFailures[name];
    console.log(why ? `FAIL ${name} (expected: ${why})` : `FAIL ${name}`);
  });
  const passed = json.numPassedTests ?? 0;
  const skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  console.log(`test:peer: ${passed} passed, ${failed.length} failed, ${skipped} skipped`);
  await rm(dataDir, { recursive: true, force: true });
  // Vitest exits 1 on the expected failures too; no report or no passing test is a failure.
  const ok = code === 0 || (passed > 0 && failed.length > 0 && unexpected.length === 0);
  return ok ? 0 : 1;
}

runCli(USAGE, main);
