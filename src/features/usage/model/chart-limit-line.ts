import type { LimitStatus } from '@contracts/usage/usage-limits';
import type { GroupBy } from '@contracts/usage/usage-schema';

/** A horizontal line on the chart: a monthly trace limit and its label. */
export interface LimitLine {
  value: number;
  label: string;
}

/**
 * The monthly trace limit to draw over calendar-month bars: the focused workspace's (grouped by
 * workspace), else the sum over the view's workspaces when every one has a limit (a bar is
 * their total). Null when some workspace is unlimited, or a group is not a workspace.
 */
export function chartLimitLine(
  statuses: readonly LimitStatus[] | undefined,
  workspaceIds: readonly string[],
  groupBy: GroupBy,
  focus: string | null,
): LimitLine | null {
  if (!statuses || workspaceIds.length === 0) return null;
  const limitOf = (id: string) =>
    statuses.find(
      (entry) =>
        entry.workspace_id === id &&
        entry.scope === 'workspace' &&
        entry.limit_type === 'monthly_traces',
    )?.limit_value ?? null;
  if (focus !== null) {
    if (groupBy !== 'workspace') return null;
    const value = limitOf(focus);
    return value === null ? null : { value, label: 'Monthly limit' };
  }
  const values = workspaceIds.map(limitOf);
  if (values.some((value) => value === null)) return null;
  const total = values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  return {
    value: total,
    label: workspaceIds.length === 1 ? 'Monthly limit' : 'Monthly limits, summed',
  };
}
