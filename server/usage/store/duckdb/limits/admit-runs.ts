import { countRefusals } from '@server/usage/model/refusal-counts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { limitMonth } from '@contracts/usage/limit-period';
import {
  selectOverLimit,
  type LimitBudget,
  type Refusal,
} from '@server/usage/model/select-over-limit';
import type { EffectiveLimit, LimitCandidate } from '@server/usage/store/usage-limit-store';
import { loadEffectiveLimits, loadMonthUsage } from './effective-limits';

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

/** Limits are read once and kept until a write through the API invalidates them. */
export function createLimitAdmission(): LimitAdmission {
  let cached: Map<string, EffectiveLimit[]> | undefined;
  return {
    invalidate: () => {
      cached = undefined;
    },
    mayLimit: (workspaceId) => cached === undefined || cached.has(workspaceId),
    admit: async (connection, candidates, ingestedAt) => {
      const limits = (cached ??= await loadEffectiveLimits(connection));
      const limited = [...new Set(candidates.map((candidate) => candidate.workspaceId))].filter(
        (id) => limits.has(id),
      );
      if (limited.length === 0) return new Map();
      const used = await loadMonthUsage(connection, limited, limitMonth(ingestedAt.getTime()));
      const budgets = new Map<string, LimitBudget[]>();
      for (const id of limited) {
        budgets.set(
          id,
          (limits.get(id) ?? []).map((limit) => ({
            limitType: limit.limitType,
            limitValue: limit.limitValue,
            used: used.get(id)?.[limit.limitType] ?? 0,
          })),
        );
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
  }));
  await connection.run(
    `INSERT INTO usage_limit_refusals
     SELECT r.workspace_id::UUID, r.limit_type, r.project, date_trunc('minute', $2::TIMESTAMP), r.n
     FROM (SELECT unnest(from_json($1, '[{"workspace_id": "VARCHAR", "limit_type": "VARCHAR",
       "project": "VARCHAR", "n": "BIGINT"}]'), recursive := true)) r`,
    [JSON.stringify(counts), ingestedAt.toISOString()],
  );
}
