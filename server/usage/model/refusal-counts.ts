import type { LimitScope, LimitType } from '@contracts/usage/usage-limits';
import type { Refusal } from './select-over-limit';

/** Root runs of one project refused by one limit of one workspace, in one batch. */
export interface RefusalCount {
  workspaceId: string;
  limitType: LimitType;
  /** Who the refusing limit holds: the workspace (its own or its spend limit), a project, a user. */
  scope: LimitScope;
  targetId: string;
  /** Whether the refusing trace limit is the one a spend limit buys. */
  spend: boolean;
  project: string;
  refused: number;
}

/**
 * The refusals of a batch as the refusal log stores them: one count per (workspace, limit type,
 * refusing limit, project), in the order each group was first refused. `runs` are the batch's candidates in
 * arrival order with the project each was sent to; `refused` is `selectOverLimit`'s answer.
 */
export function countRefusals(
  runs: readonly { runId: string; projectName: string }[],
  refused: ReadonlyMap<string, Refusal>,
): RefusalCount[] {
  const counts = new Map<string, RefusalCount>();
  for (const run of runs) {
    const refusal = refused.get(run.runId);
    if (!refusal) continue;
    const spend = refusal.spendLimit !== undefined;
    const key = JSON.stringify([
      refusal.workspaceId,
      refusal.limitType,
      refusal.scope,
      refusal.targetId,
      spend,
      run.projectName,
    ]);
    const entry = counts.get(key) ?? {
      workspaceId: refusal.workspaceId,
      limitType: refusal.limitType,
      scope: refusal.scope,
      targetId: refusal.targetId,
      spend,
      project: run.projectName,
      refused: 0,
    };
    entry.refused += 1;
    counts.set(key, entry);
  }
  return [...counts.values()];
}
