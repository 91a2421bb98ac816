import { countsAgainst, type TraceTier } from '@contracts/usage/limit-period';
import type { LimitType } from '@contracts/usage/usage-limits';

/** A new (never billed) root run waiting to be billed. */
export interface CandidateTrace {
  runId: string;
  workspaceId: string;
  tier: TraceTier;
}

/** One limit of one workspace and how much of it this month has used so far. */
export interface LimitBudget {
  limitType: LimitType;
  limitValue: number;
  used: number;
}

export interface Refusal {
  workspaceId: string;
  limitType: LimitType;
  limitValue: number;
}

/**
 * Which new root runs go over a limit, in arrival order: a run is billed while every limit it
 * counts against has room, and refused (with the first limit that had none) otherwise. Exact:
 * with `used` the month's count before these runs, exactly `limit - used` more are billed.
 * `budgets` maps a workspace to its limits; a workspace without any bills everything.
 */
export function selectOverLimit(
  candidates: readonly CandidateTrace[],
  budgets: ReadonlyMap<string, readonly LimitBudget[]>,
): Map<string, Refusal> {
  const used = new Map<string, number>();
  const keyOf = (workspaceId: string, type: LimitType) => `${workspaceId}|${type}`;
  const refused = new Map<string, Refusal>();
  for (const candidate of candidates) {
    const limits = (budgets.get(candidate.workspaceId) ?? []).filter((budget) =>
      countsAgainst(budget.limitType, candidate.tier),
    );
    const full = limits.find(
      (budget) =>
        (used.get(keyOf(candidate.workspaceId, budget.limitType)) ?? budget.used) >=
        budget.limitValue,
    );
    if (full) {
      refused.set(candidate.runId, {
        workspaceId: candidate.workspaceId,
        limitType: full.limitType,
        limitValue: full.limitValue,
      });
      continue;
    }
    for (const budget of limits) {
      const key = keyOf(candidate.workspaceId, budget.limitType);
      used.set(key, (used.get(key) ?? budget.used) + 1);
    }
  }
  return refused;
}
