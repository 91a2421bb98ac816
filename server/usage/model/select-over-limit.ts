import { countsAgainst, type TraceTier } from '@contracts/usage/limit-period';
import type { LimitScope, LimitType } from '@contracts/usage/usage-limits';

/** A new (never billed) root run waiting to be billed. */
export interface CandidateTrace {
  runId: string;
  workspaceId: string;
  tier: TraceTier;
  /** The run's project and user: what project and user limits match. */
  projectId?: string;
  userId?: string | null;
}

/**
 * One limit and how much of it this month has used so far. Without `scope` it holds the whole
 * workspace; a `project` or `user` limit holds the runs of that target (`targetId`) only.
 */
export interface LimitBudget {
  limitType: LimitType;
  limitValue: number;
  used: number;
  scope?: LimitScope;
  targetId?: string;
  /** The dollars of the spend limit this trace limit was derived from, if it was. */
  spendLimit?: number;
}

export interface Refusal {
  workspaceId: string;
  limitType: LimitType;
  limitValue: number;
  scope: LimitScope;
  /** The workspace, project or user the refusing limit holds. */
  targetId: string;
  spendLimit?: number;
}

function applies(budget: LimitBudget, candidate: CandidateTrace): boolean {
  if (!countsAgainst(budget.limitType, candidate.tier)) return false;
  if (budget.scope === 'project') return budget.targetId === candidate.projectId;
  if (budget.scope === 'user') return budget.targetId === candidate.userId;
  return true;
}

/**
 * Which new root runs go over a limit, in arrival order: a run is billed while every limit it
 * counts against has room, and refused (with the first limit that had none) otherwise. Exact:
 * with `used` the month's count before these runs, exactly `limit - used` more are billed.
 * `budgets` maps a workspace to its limits; a workspace without any bills everything. Limits
 * counting the same traces (a workspace's own and its spend's) share one count.
 */
export function selectOverLimit(
  candidates: readonly CandidateTrace[],
  budgets: ReadonlyMap<string, readonly LimitBudget[]>,
): Map<string, Refusal> {
  const used = new Map<string, number>();
  const keyOf = (workspaceId: string, budget: LimitBudget) =>
    `${workspaceId}|${budget.scope ?? 'workspace'}|${budget.targetId ?? ''}|${budget.limitType}`;
  const refused = new Map<string, Refusal>();
  for (const candidate of candidates) {
    const limits = (budgets.get(candidate.workspaceId) ?? []).filter((budget) =>
      applies(budget, candidate),
    );
    const full = limits.find(
      (budget) =>
        (used.get(keyOf(candidate.workspaceId, budget)) ?? budget.used) >= budget.limitValue,
    );
    if (full) {
      refused.set(candidate.runId, {
        workspaceId: candidate.workspaceId,
        limitType: full.limitType,
        limitValue: full.limitValue,
        scope: full.scope ?? 'workspace',
        targetId: full.targetId ?? candidate.workspaceId,
        ...(full.spendLimit === undefined ? {} : { spendLimit: full.spendLimit }),
      });
      continue;
    }
    const counted = new Map<string, number>();
    for (const budget of limits) {
      const key = keyOf(candidate.workspaceId, budget);
      counted.set(key, (used.get(key) ?? budget.used) + 1);
    }
    for (const [key, value] of counted) used.set(key, value);
  }
  return refused;
}
