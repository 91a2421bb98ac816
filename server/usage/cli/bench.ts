import os from 'node:os';
import { parseArgs } from 'node:util';
import { GROUP_BY_VALUES } from '@/contracts/usage';
import { strideForRange } from '@/lib/usage/stride';
import { loadConfig } from '@server/config';
import { DEMO_API_KEYS } from '../seed/demo-keys';
import { seedIfEmpty } from '../seed/seed-database';
import { createUsageRoutes } from '../http/usage-routes';
import { buildUsageSql } from '../store/usage-query-sql';
import { queryUsageRows } from '../store/usage-rows';
import { openUsageStore } from '../store/usage-store';
import { measureExport, percentiles, timeRuns } from './bench-measure';
import { datasetFile, profileFor } from './seed';

const DAY_MS = 86_400_000;
const RANGES = [1, 30, 93, 365] as const;

/**
 * `npm run bench:usage -- [--scale L] [--runs 15]`: builds (or reuses) the dataset, then prints
 * a markdown table of query latencies, the raw GROUP BY comparison and export throughput.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: 'L' },
      runs: { type: 'string', default: '15' },
      'data-dir': { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  const profile = profileFor(values.scale);
  const file = datasetFile(loadConfig().DATA_DIR, values.scale, values['data-dir']);
  const store = await openUsageStore(file);
  const log = (message: string) => console.error(`[bench ${profile.name}] ${message}`);
  try {
    const seeded = await seedIfEmpty(store, profile, log);
    if (seeded.seeded) log(`built ${seeded.traces} traces in ${(seeded.ms / 1000).toFixed(1)} s`);
    const { traces, workspaceIds } = await store.withConnection(async (connection) => {
      const count = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM traces');
      const ids = await connection.runAndReadAll('SELECT id::VARCHAR FROM workspaces ORDER BY id');
      return {
        traces: Number(count.getRowsJS()[0]?.[0]),
        workspaceIds: ids.getRowsJS().map(([id]) => String(id)),
      };
    });
    const endMs = profile.toMs;
    const plan = (days: number, groupBy: (typeof GROUP_BY_VALUES)[number]) => {
      const startMs = endMs - days * DAY_MS;
      const stride = strideForRange(startMs, endMs);
      return { startMs, endMs, floorMs: null, workspaceIds, groupBy, stride };
    };

    const lines = [
      `Dataset ${profile.name}: ${traces.toLocaleString('en')} traces, ${workspaceIds.length} workspaces; ` +
        `${os.cpus().length} cores, Node ${process.version}; ${runs} runs after 1 warm-up.`,
      '',
      '| Range | group_by | rows | p50 ms | p95 ms |',
      '|---|---|---:|---:|---:|',
    ];
    for (const days of RANGES) {
      for (const groupBy of GROUP_BY_VALUES) {
        let rows = 0;
        const samples = await timeRuns(runs, async () => {
          rows = (await store.withConnection((c) => queryUsageRows(c, plan(days, groupBy)))).length;
        });
        const { p50, p95 } = percentiles(samples);
        lines.push(`| ${days} d | ${groupBy} | ${rows} | ${p50.toFixed(1)} | ${p95.toFixed(1)} |`);
        log(lines.at(-1) ?? '');
      }
    }

    const yearUser = plan(365, 'user');
    // Same engine, same output, same work on the JS side (none): only the data read differs.
    const sqlOnly = (options: { rawOnly?: boolean }) => {
      const query = buildUsageSql(yearUser, options);
      if (!query) throw new Error('the 1-year range is empty');
      return () => store.withConnection((c) => c.runAndReadAll(query.sql, query.values));
    };
    const rollupSql = percentiles(await timeRuns(runs, sqlOnly({})));
    const raw = percentiles(
      await timeRuns(Math.max(3, Math.floor(runs / 3)), sqlOnly({ rawOnly: true })),
    );
    const api = percentiles(
      await timeRuns(runs, () => store.withConnection((c) => queryUsageRows(c, yearUser))),
    );
    const row = (label: string, p: { p50: number; p95: number }) =>
      `| ${label} | ${p.p50.toFixed(1)} | ${p.p95.toFixed(1)} |`;
    lines.push(
      '',
      '| 1 year, group_by=user | p50 ms | p95 ms |',
      '|---|---:|---:|',
      row('rollups + edges, SQL only', rollupSql),
      row('raw GROUP BY over traces, SQL only', raw),
      row('rollups + edges, with JS rows (the API path)', api),
      `| speed-up of the SQL | ${(raw.p50 / rollupSql.p50).toFixed(1)}x | |`,
    );

    const app = createUsageRoutes(store, { enabled: true, floorMs: null });
    lines.push(
      '',
      '| Export | MB | s | MB/s | RSS start MB | RSS max MB |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const [days, groupBy] of [
      [31, 'user'],
      [365, 'user'],
      [31, 'api_key'],
    ] as const) {
      const search = new URLSearchParams({
        start_time: new Date(endMs - days * DAY_MS).toISOString(),
        end_time: new Date(endMs).toISOString(),
        group_by: groupBy,
      });
      for (const id of workspaceIds) search.append('workspace_ids', id);
      const m = await measureExport(
        app,
        `/orgs/current/billing/granular-usage/export?${search}`,
        DEMO_API_KEYS.admin,
      );
      lines.push(
        `| ${days} d by ${groupBy} | ${(m.bytes / 1e6).toFixed(1)} | ${m.seconds.toFixed(2)} | ${m.mbPerSecond.toFixed(0)} | ${m.rssStartMb.toFixed(0)} | ${m.rssMaxMb.toFixed(0)} |`,
      );
    }
    lines.push(
      '',
      `Peak RSS of the whole run: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB.`,
    );
    console.log(lines.join('\n'));
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
