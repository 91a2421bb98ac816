import { existsSync } from 'node:fs';
import { chromium, defineConfig, devices } from '@playwright/test';
import { e2eDataDir } from './e2e/testing/e2e-data-dir';

const port = Number(process.env.E2E_PORT ?? 5273);
const baseURL = `http://127.0.0.1:${port}`;
/** A second console in LangSmith mode, whose "LangSmith" is the first server (its /api/v1). */
const langsmithModePort = port + 1;

/**
 * The test servers' request log: a line per request would bury the test report, so none unless
 * asked for (E2E_LOG_LEVEL=info or debug, e.g. to see which request failed).
 */
const serverLogLevel = process.env.E2E_LOG_LEVEL ?? 'silent';

// Every run starts from an empty data directory, as a fresh `npm start` would, removed at exit.
const dataDir = e2eDataDir();

/**
 * Playwright's own Chromium when it is installed (`npx playwright install chromium` on a normal
 * machine); otherwise the system's (Debian's `chromium` package), since some machines cannot
 * download browser builds.
 */
function chromiumExecutable(): string | undefined {
  if (existsSync(chromium.executablePath())) return undefined;
  const system = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(system)) return system;
  throw new Error(
    `No Chromium found. Run "npx playwright install chromium", or install a system Chromium ` +
      `and set CHROMIUM_PATH (looked at ${system}).`,
  );
}

export default defineConfig({
  testDir: 'e2e',
  // Browser specs only: e2e/testing holds helpers and their Vitest unit tests (*.test.ts).
  testMatch: '**/*.spec.ts',
  // The usage tab's screenshot writer runs only when asked (USAGE_SCREENSHOTS=1).
  testIgnore: process.env.USAGE_SCREENSHOTS ? [] : ['**/usage-screenshots.spec.ts'],
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: chromiumExecutable(),
          args: [
            '--no-sandbox',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: 'npm start',
      url: `${baseURL}/healthz`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        // Slow enough that run 1 is still busy when run 2 arrives, even on a loaded machine; set
        // DEMO_MODEL_STEP_MS=300 to check the playground at a brisk model's pace.
        DEMO_MODEL_STEP_MS: process.env.DEMO_MODEL_STEP_MS ?? '1000',
        // A developer's .env (e.g. a real LangSmith key) must not leak into the test server.
        USAGE_CONSOLE_NO_DOTENV: '1',
        LOG_LEVEL: serverLogLevel,
      },
    },
    {
      // Serves the dist/ the first one builds (index.html is read per request, and tests start
      // once both answer); reads usage from the first server as if it were LangSmith.
      command: 'node --import tsx server/main.ts',
      url: `http://127.0.0.1:${langsmithModePort}/healthz`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      env: {
        PORT: String(langsmithModePort),
        HOST: '127.0.0.1',
        DATA_DIR: `${dataDir}/langsmith-mode`,
        USAGE_SEED: 'none',
        LANGSMITH_ENDPOINT: baseURL,
        LANGSMITH_API_KEY: 'lsv2_demo_admin',
        USAGE_CONSOLE_NO_DOTENV: '1',
        LOG_LEVEL: serverLogLevel,
      },
    },
  ],
});
