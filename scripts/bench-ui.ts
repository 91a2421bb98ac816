// Measures the Granular Usage tab in headless Chromium: the JavaScript its first load takes on
// the wire (empty cache, compressed bytes as received), what the playground route loads, and how
// long the tab takes to paint a new grouping from cached data.
// Usage: npm run bench:ui -- [--base-url http://127.0.0.1:5173] [--runs 15]
// Needs a running `npm start`. Reports JS bytes per file, then the median and p95 of change ->
// next frame after the table shows the new grouping, measured in the page with performance.now().
import { chromium, type Page } from '@playwright/test';
import {
  describeError,
  numberArg,
  parseCliArgs,
  UsageError,
  USAGE_EXIT_CODE,
} from '../server/lib/cli-args';

const USAGE = `Usage: npm run bench:ui -- [--base-url http://127.0.0.1:5173] [--runs 15]
Needs a running \`npm start\`. Exit codes: 0 done, 1 failed, 2 bad arguments.`;

// Any failure (no server, no Chromium, a page that never draws) is one line and exit 1.
process.setUncaughtExceptionCaptureCallback((error) => {
  console.error(`error: ${describeError(error)}`);
  if (process.env.DEBUG && error instanceof Error) console.error(error.stack);
  process.exit(1);
});

function readArgs() {
  try {
    const values = parseCliArgs(process.argv.slice(2), {
      'base-url': { type: 'string', default: 'http://127.0.0.1:5173' },
      runs: { type: 'string', default: '15' },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return { baseUrl: values['base-url'], runs: numberArg('runs', values.runs, 1) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n\n${USAGE}`);
    process.exit(USAGE_EXIT_CODE);
  }
}
const { baseUrl, runs } = readArgs();
await fetch(`${baseUrl}/healthz`).catch((error: unknown) => {
  throw new Error(`no server answers at ${baseUrl} (start it with npm start, or pass --base-url)`, {
    cause: error,
  });
});
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
});

/** Every script a fresh page loads at `path`, with its compressed size on the wire. */
async function scriptsLoadedAt(path: string, ready: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const scripts: Promise<{ name: string; bytes: number; encoding: string }>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    scripts.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        name: new URL(request.url()).pathname,
        bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        encoding: response?.headers()['content-encoding'] ?? 'none',
      })),
    );
  });
  await page.goto(`${baseUrl}${path}`);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  await context.close();
  return loaded;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const usageScripts = await scriptsLoadedAt(
  '/settings/billing-and-usage/granular-usage',
  async (page) => {
    await page.locator('.recharts-bar-rectangle').first().waitFor();
  },
);
console.log('Usage tab first load, JavaScript on the wire (empty cache):');
for (const script of usageScripts) {
  console.log(`  ${script.name}  ${kb(script.bytes)} (${script.encoding})`);
}
console.log(`  total ${kb(usageScripts.reduce((sum, script) => sum + script.bytes, 0))}`);
const playgroundScripts = await scriptsLoadedAt('/tools/rollback-playground', async (page) => {
  await page.getByRole('heading', { level: 1, name: 'Rollback playground' }).waitFor();
});
console.log(
  `Playground: ${playgroundScripts.length} scripts, ${kb(playgroundScripts.reduce((sum, script) => sum + script.bytes, 0))}; chart code: ${playgroundScripts.some((script) => script.name.includes('usage-chart')) ? 'LOADED' : 'none'}`,
);

const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(`${baseUrl}/settings/billing-and-usage/granular-usage`);
await page.getByLabel('Total traces').filter({ hasText: /\d/ }).waitFor();

const groupings = ['project', 'user', 'api_key', 'workspace'] as const;
const headers = { project: 'Project', user: 'User', api_key: 'API key', workspace: 'Workspace' };
// Warm the cache: every grouping fetched once.
for (const groupBy of groupings) {
  await page.getByLabel('Group by').selectOption(groupBy);
  await page.locator('.recharts-bar-rectangle, .chart-body').first().waitFor();
  await page.getByRole('columnheader', { name: headers[groupBy] }).waitFor();
  await page.waitForLoadState('networkidle');
}

const samples: number[] = [];
for (let run = 0; run < runs; run += 1) {
  const groupBy = groupings[run % groupings.length] ?? 'workspace';
  // Plain-text script: tsx would wrap named functions in a helper the page does not have.
  const elapsed = (await page.evaluate(`new Promise((resolve) => {
    const select = [...document.querySelectorAll('label')]
      .find((label) => label.textContent === 'Group by')
      ?.parentElement?.querySelector('select');
    if (!select) throw new Error('No Group by select');
    const start = performance.now();
    select.value = ${JSON.stringify(groupBy)};
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const check = () => {
      const th = document.querySelector('.data-table thead th');
      if (th?.textContent?.startsWith(${JSON.stringify(headers[groupBy])}) && !document.querySelector('.stale')) {
        // The frame after the DOM shows the new grouping is the one that paints it.
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      } else {
        requestAnimationFrame(check);
      }
    };
    check();
  })`)) as number;
  samples.push(elapsed);
  if (process.env.BENCH_VERBOSE) console.log(groupBy, elapsed.toFixed(1));
}
await browser.close();

samples.sort((a, b) => a - b);
const pick = (q: number) =>
  samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
console.log(
  `Group-by switch on cached data, ${runs} runs (ms): median ${pick(0.5).toFixed(1)}, p95 ${pick(0.95).toFixed(1)}, min ${pick(0).toFixed(1)}, max ${pick(1).toFixed(1)}`,
);
