import { countRefusals } from '@server/usage/model/refusal-counts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { limitMonth } from '@contracts/usage/limit-period';
import {
  selectOverLimit,
  type LimitBudget,
  type Refusal,
} from '@server/usage/model/select-over-limit';
import type { EffectiveLimit, LimitCandidate } from '@server/usage/store/usage-limit-store';
import {
  LIMIT_TYPES,
  SPEND_LIMIT_TYPE,
  type LimitType,
  type ScopedLimit,
} from '@contracts/usage/usage-limits';
import { loadEffectiveLimits, loadMonthUsage } from './effective-limits';
import { listScopedLimits, loadTargetUsage } from './scoped-limit-sql';

export type AdmissionCandidate = LimitCandidate;

/**
 * Decides, inside the writer's transaction and before the insert, which new root runs go over a
 * limit; returns them with the limit that refused each, and counts them in
 * `usage_limit_refusals` in the same transaction. The writer is the only one, so the month's
 * count it reads plus its own decisions are exact whatever the number of senders.
 */
export type AdmitRuns = (
  connection: DuckDBConnection,
  candidates: readonly AdmissionCandidate[],
  ingestedAt: Date,
) => Promise<Map<string, Refusal>>;

export interface LimitAdmission {
  admit: AdmitRuns;
  /** Call after a limit or default changed: the next group reads them again. */
  invalidate(): void;
  /** False only when the limits are loaded and the workspace has none (skip its alerts). */
  mayLimit(workspaceId: string): boolean;
}

interface LoadedLimits {
  own: Map<string, EffectiveLimit[]>;
  scoped: Map<string, ScopedLimit[]>;
}

async function loadLimits(connection: DuckDBConnection): Promise<LoadedLimits> {
  const scoped = new Map<string, ScopedLimit[]>();
  for (const limit of await listScopedLimits(connection, 'all')) {
    scoped.set(limit.tenant_id, [...(scoped.get(limit.tenant_id) ?? []), limit]);
  }
  return { own: await loadEffectiveLimits(connection), scoped };
}

/**
 * A scoped limit as the budgets it is enforced as: a spend limit is the two trace limits it
 * bought (workspace-wide), a project or user limit its target's traces.
 */
function scopedBudgets(
  limit: ScopedLimit,
  workspaceUsed: Record<LimitType, number>,
  targetUsed: ReadonlyMap<string, number>,
): LimitBudget[] {
  if (limit.limit_type === SPEND_LIMIT_TYPE) {
    if (!limit.derived) return [];
    return LIMIT_TYPES.map((type) => ({
      limitType: type,
      limitValue: limit.derived?.[type] ?? 0,
      used: workspaceUsed[type],
      spendLimit: limit.limit_value,
    }));
  }
  return [
    {
      limitType: 'monthly_traces',
      limitValue: limit.limit_value,
      used: targetUsed.get(`${limit.scope}|${limit.target_id}`) ?? 0,
      scope: limit.scope,
      targetId: limit.target_id,
    },
  ];
}

/** Limits are read once and kept until a write through the API invalidates them. */
export function createLimitAdmission(): LimitAdmission {
  let cached: LoadedLimits | undefined;
  return {
    invalidate: () => {
      cached = undefined;
    },
    mayLimit: (workspaceId) =>
      cached === undefined || cached.own.has(workspaceId) || cached.scoped.has(workspaceId),
    admit: async (connection, candidates, ingestedAt) => {
      const limits = (cached ??= await loadLimits(connection));
      const limited = [...new Set(candidates.map((candidate) => candidate.workspaceId))].filter(
        (id) => limits.own.has(id) || limits.scoped.has(id),
      );
      if (limited.length === 0) return new Map();
      const month = limitMonth(ingestedAt.getTime());
      const used = await loadMonthUsage(connection, limited, month);
      const scoped = limited.flatMap((id) => limits.scoped.get(id) ?? []);
      const targetUsed = await loadTargetUsage(
        connection,
        scoped
          .filter((limit) => limit.scope !== 'workspace')
          .map((limit) => ({ scope: limit.scope, targetId: limit.target_id })),
        month,
      );
      const budgets = new Map<string, LimitBudget[]>();
      for (const id of limited) {
        const workspaceUsed = used.get(id) ?? { monthly_traces: 0, monthly_longlived_traces: 0 };
        budgets.set(id, [
          ...(limits.own.get(id) ?? []).map((limit) => ({
            limitType: limit.limitType,
            limitValue: limit.limitValue,
            used: workspaceUsed[limit.limitType],
          })),
          ...(limits.scoped.get(id) ?? []).flatMap((limit) =>
            scopedBudgets(limit, workspaceUsed, targetUsed),
          ),
        ]);
      }
      const refused = selectOverLimit(candidates, budgets);
      if (refused.size > 0) await recordRefusals(connection, candidates, refused, ingestedAt);
      return refused;
    },
  };
}

async function recordRefusals(
  connection: DuckDBConnection,
  candidates: readonly AdmissionCandidate[],
  refused: ReadonlyMap<string, Refusal>,
  ingestedAt: Date,
): Promise<void> {
  const counts = countRefusals(candidates, refused).map((count) => ({
    workspace_id: count.workspaceId,
    limit_type: count.limitType,
    project: count.project,
    n: count.refused,
    scope: count.scope,
    target_id: count.targetId,
    spend: count.spend,
  }));
  await connection.run(
    `INSERT INTO usage_limit_refusals
       (workspace_id, limit_type, project_name, minute, refused, scope, target_id, spend)
     SELECT r.workspace_id::UUID, r.limit_type, r.project, date_trunc('minute', $2::TIMESTAMP), r.n,
       r.scope, r.target_id::UUID, r.spend
     FROM (SELECT unnest(from_json($1, '[{"workspace_id": "VARCHAR", "limit_type": "VARCHAR",
       "project": "VARCHAR", "n": "BIGINT", "scope": "VARCHAR", "target_id": "VARCHAR",
       "spend": "BOOLEAN"}]'), recursive := true)) r`,
    [JSON.stringify(counts), ingestedAt.toISOString()],
  );
}
