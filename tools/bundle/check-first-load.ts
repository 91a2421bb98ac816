// Fails when the usage tab's first-load JavaScript is over its budget on the wire.
// Usage: node --import tsx tools/bundle/check-first-load.ts [dist]   (after `npm run build`)
// Reads the build manifest (dist/.vite/manifest.json), takes the scripts the tab loads before its
// chart is drawn, and adds up their brotli size as the server sends them plus each response's
// headers: the figure `npm run bench:ui` measures in Chromium, without a browser or a server.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import {
  checkBudget,
  eagerModules,
  findManifestKey,
  formatBudgetReport,
  staticClosure,
  type Manifest,
  type ScriptSize,
} from './first-load';

/**
 * The usage tab's first-load budget on the wire. The libraries it draws with take ~156 KB of
 * it (React ~58, Recharts with its d3 and redux ~87, TanStack Query ~9, wouter ~2), the tab's
 * own code ~22. zod is not among them: the first screen checks its answers with the guards of
 * `contracts/response-guards.ts`, and zod's core (~20 KB even through zod/mini) loads with the
 * forms and pages that need it. New tabs, pages and the cards below the chart load as chunks of
 * their own (LOADED_ON_DEMAND).
 */
const BUDGET_BYTES = 190 * 1024;

/**
 * Response headers of one script as the server sends them (measured: 944 bytes, most of it the
 * security headers every response carries). Each script pays them, so a split costs this much.
 */
const RESPONSE_HEADER_BYTES = 950;

/**
 * What the tab's first screen loads: the page's entry, and the chart chunk, which the tab
 * requests as it mounts (in parallel with its first usage request), so it is on the wire before
 * anything is drawn. Named by file, not folder, so moving a component keeps the check.
 */
const FIRST_SCREEN = ['index.html', 'usage-chart.tsx'];

/**
 * Routes, tabs and editors the usage tab's first screen does not draw: each must stay a lazy
 * chunk of its own (`React.lazy` or `import()` where it is used), or its code would join the
 * first load.
 */
const LOADED_ON_DEMAND = [
  'rollback-playground.tsx',
  'deployments-view.tsx',
  'deployment-actions.tsx',
  'llm-usage-view.tsx',
  'llm-actions.tsx',
  'sign-in-page.tsx',
  'signed-in-user.tsx',
  'invoices.tsx',
  'api-keys.tsx',
  'audit-log.tsx',
  'limit-editor.tsx',
  'usage-limits-panel.tsx',
  'usage-table.tsx',
  'org-default-editor.tsx',
  'custom-range-form.tsx',
  'connection-form.tsx',
  'export-usage-csv.ts',
];

const distDir = path.resolve(process.argv[2] ?? 'dist');
const manifestPath = path.join(distDir, '.vite', 'manifest.json');

/** A script's body as the server sends it: the precompressed `.br` beside it, or brotli'd here. */
async function brotliBytes(file: string): Promise<number> {
  const full = path.join(distDir, file);
  if (existsSync(`${full}.br`)) return (await readFile(`${full}.br`)).length;
  const content = await readFile(full);
  return brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  }).length;
}

async function main(): Promise<number> {
  if (!existsSync(manifestPath)) {
    console.error(`No build manifest at ${manifestPath}: run \`npm run build\` first.`);
    return 1;
  }
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
  const roots = FIRST_SCREEN.map((name) => findManifestKey(manifest, name));
  const files = staticClosure(manifest, roots);
  const eager = eagerModules(manifest, files, LOADED_ON_DEMAND);
  if (eager.length > 0) {
    console.error(
      `Not loaded on demand, so part of the usage tab's first load: ${eager.join(', ')}. ` +
        'Import each with React.lazy or import() where it is used.',
    );
    return 1;
  }
  const scripts: ScriptSize[] = await Promise.all(
    files.map(async (file) => ({
      file,
      bytes: (await brotliBytes(file)) + RESPONSE_HEADER_BYTES,
    })),
  );
  const report = checkBudget(scripts, BUDGET_BYTES);
  const message = formatBudgetReport(report, 'Usage tab first-load JavaScript (brotli + headers)');
  if (report.over) {
    console.error(message);
    console.error(
      'Load what the first screen does not draw on demand (React.lazy at the route or tab), ' +
        'or raise the budget with a reason.',
    );
    return 1;
  }
  console.log(message);
  return 0;
}

process.exitCode = await main();
