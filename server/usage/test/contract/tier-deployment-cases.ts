import { describe, expect, it } from 'vitest';
import type { DeploymentReport } from '@contracts/usage/deployment-report';
import { GROUP_BY_VALUES, TRACE_TIERS, type TraceGroupBy } from '@contracts/usage/usage-schema';
import {
  deploymentUsageCsv,
  deploymentUsageJson,
} from '@server/usage/http/render-deployment-usage';
import type { UsageAnswer } from '@server/usage/model/usage-matrix';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import type { createRawReference } from './raw-reference';
import type { renderThroughPort } from './render-through-port';
import { planFor, RANGES, workspaceIds } from './rendering-fixture';
import { getUsage } from '@server/usage/queries/get-usage';

/** What the contract's `beforeAll` opened: the backend under test and the DuckDB reference. */
export interface ContractContext {
  backend: UsageStoreWithFixtures;
  referenceBackend: UsageStoreWithFixtures;
  render: ReturnType<typeof renderThroughPort>;
  reference: ReturnType<typeof createRawReference>;
}

/** A plan with a grouping beyond the four entities, or a tier filter. */
function tierPlan(
  [start, end, floor]: (typeof RANGES)[number],
  groupBy: TraceGroupBy,
  traceTier?: (typeof TRACE_TIERS)[number],
): UsageQueryPlan {
  const base = planFor(start, end, 'workspace', floor);
  return { ...base, groupBy, ...(traceTier && { traceTier }) };
}

/** Traces per (value id, bucket start) of an answer: what a chart draws. */
function cells(answer: UsageAnswer): Map<string, number> {
  const { matrix, plan } = answer;
  const out = new Map<string, number>();
  matrix.ids.forEach((id, value) => {
    for (let k = 0; k < matrix.bucketCount; k += 1) {
      const n = matrix.counts[value * matrix.bucketCount + k] ?? 0;
      if (n > 0) out.set(`${id}|${plan.grid.start(k)}`, n);
    }
  });
  return out;
}

const report = (overrides: Partial<DeploymentReport>): DeploymentReport => ({
  replica_id: '0de91000-0000-4000-8000-000000000001',
  started_at: '2026-02-01T10:00:00Z',
  seq: 1,
  sent_at: '2026-02-01T10:07:30Z',
  projects: ['contract agent'],
  counts: [
    {
      project_name: 'contract agent',
      minute: '2026-02-01T10:05:00Z',
      agent_runs: 3,
      nodes_executed: 9,
    },
  ],
  ...overrides,
});

/**
 * Cases run on every backend: retention tiers (filter, group_by=trace_tier, a
 * project's tier taken at ingestion) and the Deployments domain (reports applied once, answers
 * byte-identical to the DuckDB backend's in JSON and CSV). Writes go to both stores alike, so
 * the contract's later trace comparisons still hold.
 */
export function defineTierAndDeploymentCases(context: () => ContractContext): void {
  const onBoth = async (write: (target: UsageStoreWithFixtures) => Promise<unknown>) => {
    const { backend, referenceBackend } = context();
    await write(backend);
    await write(referenceBackend);
  };

  describe('retention tiers: the reference bytes with trace_tier', () => {
    for (const range of RANGES) {
      const cases: [TraceGroupBy, (typeof TRACE_TIERS)[number] | undefined][] = [
        ['trace_tier', undefined],
        ...TRACE_TIERS.map((tier): [TraceGroupBy, typeof tier] => ['trace_tier', tier]),
        ...GROUP_BY_VALUES.flatMap((groupBy) =>
          TRACE_TIERS.map((tier): [TraceGroupBy, typeof tier] => [groupBy, tier]),
        ),
      ];
      it.each(cases)(`${range[0]} .. ${range[1]} by %s, trace_tier=%s`, async (groupBy, tier) => {
        const { render, reference } = context();
        const plan = tierPlan(range, groupBy, tier);
        const rows = await reference.rows(plan);
        expect(await render.json(plan)).toBe(await reference.json(plan, rows));
        const csv = await reference.csv(plan, rows);
        expect(await render.csv(plan)).toBe(csv);
        expect(await render.csv(plan, 7)).toBe(csv);
      });
    }

    it('counts longlived + shortlived = all, bucket by bucket, both tiers present', async () => {
      const { backend } = context();
      const range = RANGES[0] ?? ['', '', false];
      const [all, long, short] = await Promise.all(
        [undefined, 'longlived' as const, 'shortlived' as const].map((tier) =>
          getUsage(backend.facts, tierPlan(range, 'workspace', tier)),
        ),
      );
      if (!all || !long || !short) throw new Error('three answers expected');
      const sum = new Map(cells(short));
      for (const [cell, n] of cells(long)) sum.set(cell, (sum.get(cell) ?? 0) + n);
      expect(cells(long).size).toBeGreaterThan(0);
      expect(cells(short).size).toBeGreaterThan(0);
      expect(new Map([...sum].sort())).toEqual(new Map([...cells(all)].sort()));
    });

    it("gives each trace its project's tier at ingestion; stored traces keep theirs", async () => {
      const { backend, render, reference } = context();
      const workspaceId = workspaceIds[0] ?? '';
      const trace = (id: number, projectId: string, time: string) => ({
        run_id: `7e1e7e1e-0000-4000-8000-${String(id).padStart(12, '0')}`,
        workspace_id: workspaceId,
        project_id: projectId,
        start_time: time,
      });
      let projectId = '';
      await onBoth(async (target) => {
        projectId = await target.catalog.setProjectTier(workspaceId, 'tiered agent', 'shortlived');
        await target.fixtures.ingestTrace(trace(1, projectId, '2026-02-10T08:00:00Z'));
        await target.catalog.setProjectTier(workspaceId, 'tiered agent', 'longlived');
        await target.fixtures.ingestTrace(trace(2, projectId, '2026-02-10T09:00:00Z'));
        await target.fixtures.ingestTrace(trace(3, projectId, '2026-02-11T09:00:00Z'));
      });
      const range: (typeof RANGES)[number] = [
        '2026-02-09T00:00:00Z',
        '2026-02-13T00:00:00Z',
        false,
      ];
      for (const tier of TRACE_TIERS) {
        const plan = tierPlan(range, 'project', tier);
        expect(await render.json(plan)).toBe(await reference.json(plan));
      }
      const long = await getUsage(backend.facts, tierPlan(range, 'project', 'longlived'));
      const short = await getUsage(backend.facts, tierPlan(range, 'project', 'shortlived'));
      const of = (answer: UsageAnswer) =>
        [...cells(answer)].filter(([cell]) => cell.startsWith(projectId)).map(([, n]) => n);
      expect(of(long)).toEqual([1, 1]);
      expect(of(short)).toEqual([1]);
    });
  });

  describe('deployments: reports applied once, answers as DuckDB gives them', () => {
    const workspaceId = () => workspaceIds[0] ?? '';
    const nowMs = Date.parse('2026-02-01T10:08:00Z');

    it('applies a report once, also when the same report arrives twice at once', async () => {
      const { backend, referenceBackend } = context();
      const first = report({});
      const results = await Promise.all([
        backend.billing.applyDeploymentReport(workspaceId(), first, nowMs),
        backend.billing.applyDeploymentReport(workspaceId(), first, nowMs),
      ]);
      expect(results.filter((result) => result.applied)).toEqual([
        { applied: true, agentRuns: 3, nodesExecuted: 9, uptimeMs: 450_000 },
      ]);
      await referenceBackend.billing.applyDeploymentReport(workspaceId(), first, nowMs);
      const second = report({
        seq: 2,
        sent_at: '2026-02-01T10:09:00Z',
        counts: [
          {
            project_name: 'contract agent',
            minute: '2026-02-01T10:08:00Z',
            agent_runs: 1,
            nodes_executed: 4,
          },
        ],
      });
      await onBoth(async (target) => {
        expect(
          await target.billing.applyDeploymentReport(workspaceId(), second, nowMs + 60_000),
        ).toEqual({
          applied: true,
          agentRuns: 1,
          nodesExecuted: 4,
          uptimeMs: 90_000,
        });
        expect(
          await target.billing.applyDeploymentReport(workspaceId(), first, nowMs),
        ).toMatchObject({
          applied: false,
        });
      });
    });

    const deploymentRanges = RANGES.filter(([start]) => start.startsWith('2026-0'));
    for (const [start, end, floor] of deploymentRanges) {
      it.each(GROUP_BY_VALUES)(`${start} .. ${end} by %s: JSON and CSV bytes`, async (groupBy) => {
        const { backend, referenceBackend } = context();
        const plan = { ...planFor(start, end, groupBy, floor), groupBy };
        const [mine, theirs] = await Promise.all([
          backend.facts.deploymentRows(plan),
          referenceBackend.facts.deploymentRows(plan),
        ]);
        expect(theirs.length).toBeGreaterThan(0);
        expect(JSON.stringify(deploymentUsageJson(plan, mine))).toBe(
          JSON.stringify(deploymentUsageJson(plan, theirs)),
        );
        expect(deploymentUsageCsv(plan, mine)).toBe(deploymentUsageCsv(plan, theirs));
        expect(deploymentUsageCsv(plan, mine, true)).toBe(deploymentUsageCsv(plan, theirs, true));
      });
    }
  });
}
