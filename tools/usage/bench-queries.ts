import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { GROUP_BY_VALUES } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange } from '@contracts/usage/stride';
import { DEMO_API_KEYS } from '@server/usage/seed/demo-keys';
import type { SeedProfile } from '@server/usage/seed/seed-profiles';
import { createUsageRoutes } from '@server/usage/http/usage-routes';
import { createUsageRenderer } from '@server/usage/http/render-usage';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { UsageStore } from '@server/usage/store/usage-store';
import { measureExport, percentiles, timeRuns } from './bench-measure';
import { getDimensionCatalog } from '@server/usage/queries/get-dimension-catalog';
import { getUsage } from '@server/usage/queries/get-usage';
import { DAY_MS } from '@contracts/usage/time';

const execFileAsync = promisify(execFile);
const RANGES = [1, 30, 93, 365] as const;

/** The figures the cross-backend summary compares. */
export interface QueryFigures {
  yearUserP50: number;
  yearWorkspaceP50: number;
  /** Median MB/s of the 365-day export by user, in process. */
  exportMbPerSecond: number;
}

/**
 * Builds (or reuses) the dataset in `backend`, then measures the JSON endpoint's work over
 * ranges and group_bys, the 1-year user answer end to end, and exports. Returns the markdown
 * lines and the summary figures.
 */
export async function benchQueries(
  backend: UsageStore,
  profile: SeedProfile,
  runs: number,
  log: (message: string) => void,
): Promise<{ lines: string[]; figures: QueryFigures }> {
  const seeded = await backend.seeder.seedIfEmpty(profile, log);
  if (seeded.seeded) log(`built ${seeded.traces} traces in ${(seeded.ms / 1000).toFixed(1)} s`);
  const traces = (await backend.health()).traces ?? 0;
  const workspaceIds = [...(await getDimensionCatalog(backend.facts, 'workspace')).ids].sort();
  const endMs = profile.toMs;
  const plan = (days: number, groupBy: (typeof GROUP_BY_VALUES)[number]): UsageQueryPlan => {
    const startMs = endMs - days * DAY_MS;
    const grid = createBucketGrid(startMs, endMs, strideForRange(startMs, endMs));
    return { grid, floorMs: null, workspaceIds, groupBy };
  };

  // The JSON endpoint's work after validation: query the matrix, write the body.
  // Like the server, with dimension catalogs kept between requests.
  const renderer = createUsageRenderer();
  const answerTo = (query: UsageQueryPlan) => getUsage(backend.facts, query);
  const jsonBody = async (query: UsageQueryPlan) => {
    const answer = await answerTo(query);
    return renderer.json(answer.plan, answer.matrix);
  };

  const figures: QueryFigures = { yearUserP50: NaN, yearWorkspaceP50: NaN, exportMbPerSecond: NaN };
  const lines = [
    `Backend ${backend.kind}, dataset ${profile.name}: ${traces.toLocaleString('en')} traces, ${workspaceIds.length} workspaces; ` +
      `${os.cpus().length} cores, Node ${process.version}; ${runs} runs after 1 warm-up.`,
    '',
    "Latency = the JSON endpoint's work: fresh connection, matrix query, response bytes written.",
    '',
    '| Range | group_by | records | JSON MB | p50 ms | p95 ms |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const days of RANGES) {
    for (const groupBy of GROUP_BY_VALUES) {
      const query = plan(days, groupBy);
      const { matrix } = await answerTo(query);
      const rows = matrix.counts.filter((count) => count > 0).length;
      let bytes = 0;
      const samples = await timeRuns(runs, async () => {
        bytes = (await jsonBody(query)).length;
      });
      const { p50, p95 } = percentiles(samples);
      if (days === 365 && groupBy === 'user') figures.yearUserP50 = p50;
      if (days === 365 && groupBy === 'workspace') figures.yearWorkspaceP50 = p50;
      lines.push(
        `| ${days} d | ${groupBy} | ${rows} | ${(bytes / 1e6).toFixed(2)} | ${p50.toFixed(1)} | ${p95.toFixed(1)} |`,
      );
      log(lines.at(-1) ?? '');
    }
  }

  const yearUser = plan(365, 'user');
  const matrixOnly = percentiles(await timeRuns(runs, () => answerTo(yearUser)));
  const jsonText = percentiles(await timeRuns(runs, () => jsonBody(yearUser)));
  const app = createUsageRoutes(backend, { enabled: true, floorMs: null });
  const urlFor = (days: number, groupBy: string, path: string) => {
    const search = new URLSearchParams({
      start_time: new Date(endMs - days * DAY_MS).toISOString(),
      end_time: new Date(endMs).toISOString(),
      group_by: groupBy,
    });
    for (const id of workspaceIds) search.append('workspace_ids', id);
    return `${path}?${search}`;
  };
  // End to end: a real HTTP server on localhost and curl (its own process, so the client does
  // not share this event loop) reading the whole body; curl's time_total per request.
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const httpUrl = `${baseUrl}${urlFor(365, 'user', '/orgs/current/billing/granular-usage')}`;
  let httpBytes = 0;
  const httpSamples: number[] = [];
  await timeRuns(runs, async () => {
    const { stdout } = await execFileAsync('curl', [
      ...['-sS', '-o', '/dev/null', '-H', `x-api-key: ${DEMO_API_KEYS.admin}`],
      ...['-w', '%{http_code} %{size_download} %{time_total}', httpUrl],
    ]);
    const [status, size, seconds] = stdout.trim().split(' ');
    if (status !== '200') throw new Error(`HTTP ${status}`);
    httpBytes = Number(size);
    httpSamples.push(Number(seconds) * 1000);
  });
  const http = percentiles(httpSamples.slice(1));
  const row = (label: string, p: { p50: number; p95: number }) =>
    `| ${label} | ${p.p50.toFixed(1)} | ${p.p95.toFixed(1)} |`;
  lines.push(
    '',
    '| 1 year, group_by=user | p50 ms | p95 ms |',
    '|---|---:|---:|',
    row('API: rollup facts read into the matrix', matrixOnly),
    row('API: matrix + JSON body written (the endpoint)', jsonText),
    row(`HTTP GET via curl, localhost, whole body (${(httpBytes / 1e6).toFixed(1)} MB)`, http),
  );

  // Exports: the first (cold) run, then the median of 5 more; in-process through the Hono app
  // (RSS sampled per chunk) and over HTTP with curl as the client.
  lines.push(
    '',
    '| Export | MB | first run MB/s | median of 5 MB/s | curl median MB/s | RSS start MB | RSS max MB |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const [days, groupBy] of [
    [31, 'user'],
    [365, 'user'],
    [31, 'api_key'],
  ] as const) {
    const path = urlFor(days, groupBy, '/orgs/current/billing/granular-usage/export');
    const first = await measureExport(app, path, DEMO_API_KEYS.admin);
    const warm = [];
    for (let i = 0; i < 5; i += 1) warm.push(await measureExport(app, path, DEMO_API_KEYS.admin));
    const curlRates: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const { stdout } = await execFileAsync('curl', [
        ...['-sS', '-o', '/dev/null', '-H', `x-api-key: ${DEMO_API_KEYS.admin}`],
        ...['-w', '%{http_code} %{size_download} %{time_total}', `${baseUrl}${path}`],
      ]);
      const [status, size, seconds] = stdout.trim().split(' ');
      if (status !== '200') throw new Error(`HTTP ${status}`);
      curlRates.push(Number(size) / 1e6 / Number(seconds));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2] ?? NaN;
    const rssMax = Math.max(first.rssMaxMb, ...warm.map((m) => m.rssMaxMb));
    if (days === 365 && groupBy === 'user') {
      figures.exportMbPerSecond = median(warm.map((m) => m.mbPerSecond));
    }
    lines.push(
      `| ${days} d by ${groupBy} | ${(first.bytes / 1e6).toFixed(1)} | ${first.mbPerSecond.toFixed(0)} | ` +
        `${median(warm.map((m) => m.mbPerSecond)).toFixed(0)} | ${median(curlRates).toFixed(0)} | ` +
        `${first.rssStartMb.toFixed(0)} | ${rssMax.toFixed(0)} |`,
    );
    log(lines.at(-1) ?? '');
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  lines.push(
    '',
    `Peak RSS of the whole run: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB.`,
  );
  return { lines, figures };
}
