import type { PoolClient } from 'pg';
import { LIMIT_TYPES, SPEND_LIMIT_TYPE, type ScopedLimit } from '@contracts/usage/usage-limits';
import {
  selectOverLimit,
  type LimitBudget,
  type Refusal,
} from '@server/usage/model/select-over-limit';
import type { EffectiveLimit } from '@server/usage/store/usage-limit-store';
import { loadEffectiveLimits } from './limit-sql';
import { COUNTER_TYPES, keyOf, monthOf, type CountedRow, type Counts } from './month-counters';
import { listScopedLimits } from './scoped-limit-sql';
import { targetKeyOf } from './target-counters';

/** The counts of one claim's (workspace, month) and target rows, read under their locks. */
export interface LockedCounts {
  workspaces: ReadonlyMap<string, Counts>;
  targets: ReadonlyMap<string, number>;
}

/**
 * A workspace's limits in one month as budgets, in the order the DuckDB backend weighs them
 * (`admit-runs.ts`: its own limits, then project, user and spend limits), so the limit named by a
 * refusal is the same on both: a spend limit is the two trace limits it bought, on the
 * workspace's counts; a project or user limit is its target's count.
 */
function monthBudgets(
  workspaceId: string,
  month: string,
  own: readonly EffectiveLimit[],
  scoped: readonly ScopedLimit[],
  counts: LockedCounts,
): LimitBudget[] {
  const used = counts.workspaces.get(keyOf({ workspaceId, month })) ?? { traces: 0, longlived: 0 };
  const budgets: LimitBudget[] = own.map((limit) => ({
    limitType: limit.limitType,
    limitValue: limit.limitValue,
    used: used[COUNTER_TYPES[limit.limitType]],
  }));
  for (const limit of scoped) {
    if (limit.limit_type === SPEND_LIMIT_TYPE) {
      const derived = limit.derived;
      if (!derived) continue;
      budgets.push(
        ...LIMIT_TYPES.map((type) => ({
          limitType: type,
          limitValue: derived[type],
          used: used[COUNTER_TYPES[type]],
          spendLimit: limit.limit_value,
        })),
      );
    } else if (limit.scope === 'project' || limit.scope === 'user') {
      const key = targetKeyOf({ scope: limit.scope, targetId: limit.target_id, month });
      budgets.push({
        limitType: 'monthly_traces',
        limitValue: limit.limit_value,
        used: counts.targets.get(key) ?? 0,
        scope: limit.scope,
        targetId: limit.target_id,
      });
    }
  }
  return budgets;
}

/**
 * The new root runs of `fresh` that go over a limit of their workspace this month: workspace,
 * project, user and spend limits, read from Postgres in the claim's transaction and weighed with
 * the counts read under its locks by the same pure decision as DuckDB's.
 */
export async function selectRefusals(
  client: PoolClient,
  fresh: readonly CountedRow[],
  counts: LockedCounts,
): Promise<Map<string, Refusal>> {
  const limited = fresh.filter((row) => row.limitedProject !== undefined);
  if (limited.length === 0) return new Map();
  const workspaceIds = [...new Set(limited.map((row) => row.workspaceId))];
  const own = await loadEffectiveLimits(client, workspaceIds);
  const scoped = new Map<string, ScopedLimit[]>();
  for (const limit of await listScopedLimits(client, workspaceIds)) {
    scoped.set(limit.tenant_id, [...(scoped.get(limit.tenant_id) ?? []), limit]);
  }
  if (own.size === 0 && scoped.size === 0) return new Map();
  // Budgets per (workspace, month): a group may straddle a month's end.
  const budgets = new Map<string, LimitBudget[]>();
  const candidates = limited.map((row) => {
    const month = monthOf(row.day);
    const key = keyOf({ workspaceId: row.workspaceId, month });
    if (!budgets.has(key)) {
      budgets.set(
        key,
        monthBudgets(
          row.workspaceId,
          month,
          own.get(row.workspaceId) ?? [],
          scoped.get(row.workspaceId) ?? [],
          counts,
        ),
      );
    }
    return {
      runId: row.runId,
      workspaceId: key,
      tier: row.tier,
      projectId: row.projectId?.toLowerCase(),
      userId: row.userId?.toLowerCase() ?? null,
    };
  });
  const refused = selectOverLimit(candidates, budgets);
  const workspaceOf = new Map(limited.map((row) => [row.runId, row.workspaceId]));
  for (const [runId, refusal] of refused) {
    const workspaceId = workspaceOf.get(runId) ?? refusal.workspaceId;
    // The decision ran on (workspace, month) keys: name the workspace itself again.
    const targetId = refusal.scope === 'workspace' ? workspaceId : refusal.targetId;
    refused.set(runId, { ...refusal, workspaceId, targetId });
  }
  return refused;
}
