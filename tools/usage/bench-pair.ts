import os from 'node:os';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange } from '@contracts/usage/stride';
import { GROUP_BY_VALUES } from '@contracts/usage/usage-schema';
import type { SeedProfile } from '@server/usage/seed/seed-profiles';
import { createUsageRenderer } from '@server/usage/http/render-usage';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { UsageStore } from '@server/usage/store/usage-store';
import { percentiles } from './bench-measure';
import { getDimensionCatalog } from '@server/usage/queries/get-dimension-catalog';
import { getUsage } from '@server/usage/queries/get-usage';
import { DAY_MS } from '@contracts/usage/time';

const RANGES = [365, 93, 30] as const;

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/**
 * The JSON endpoint's work (as `benchQueries` measures it) on two backends holding the same
 * dataset, one request on each in turn, so both see the same machine: on a machine shared with
 * other work, backends measured one after the other see different loads and their ratio says
 * little. Prints the p50 of each and their ratio per range and group_by.
 */
export async function benchPair(
  base: UsageStore,
  other: UsageStore,
  profile: SeedProfile,
  runs: number,
): Promise<string[]> {
  const workspaceIds = [...(await getDimensionCatalog(base.facts, 'workspace')).ids].sort();
  const renderer = createUsageRenderer();
  const endpoint = async (backend: UsageStore, plan: UsageQueryPlan) => {
    const answer = await getUsage(backend.facts, plan);
    return renderer.json(answer.plan, answer.matrix).length;
  };
  const lines = [
    `Interleaved, dataset ${profile.name}, ${os.cpus().length} cores; ${runs} runs of each after 1 warm-up; load average (1, 5, 15 min) at the start: ${load()}.`,
    '',
    `| Range | group_by | ${base.kind} p50 ms | ${other.kind} p50 ms | ratio |`,
    '|---|---|---:|---:|---:|',
  ];
  for (const days of RANGES) {
    for (const groupBy of GROUP_BY_VALUES) {
      const startMs = profile.toMs - days * DAY_MS;
      const grid = createBucketGrid(startMs, profile.toMs, strideForRange(startMs, profile.toMs));
      const plan: UsageQueryPlan = { grid, floorMs: null, workspaceIds, groupBy };
      await endpoint(base, plan);
      await endpoint(other, plan);
      const samples: [number[], number[]] = [[], []];
      for (let i = 0; i < runs; i += 1) {
        for (const [at, backend] of [base, other].entries()) {
          const started = performance.now();
          await endpoint(backend, plan);
          samples[at]?.push(performance.now() - started);
        }
      }
      const [first, second] = samples.map((values) => percentiles(values).p50) as [number, number];
      lines.push(
        `| ${days} d | ${groupBy} | ${first.toFixed(1)} | ${second.toFixed(1)} | ${(second / first).toFixed(2)}x |`,
      );
    }
  }
  lines.push('', `Load average at the end: ${load()}.`);
  return lines;
}
