import { limitMonth } from '@contracts/usage/limit-period';
import { LIMIT_TYPES, type LimitStatus } from '@contracts/usage/usage-limits';
import type { UsageLimitStore } from '../store/usage-limit-store';

/**
 * This month's standing of each limit type of each workspace: the limit in force (or null), the
 * count against it, when it was reached, refusals and the alerts crossed. What the tab draws.
 */
export async function loadLimitStatus(
  limits: UsageLimitStore,
  workspaces: readonly { id: string; canEdit: boolean }[],
  nowMs: number,
): Promise<LimitStatus[]> {
  const ids = workspaces.map((workspace) => workspace.id);
  const month = limitMonth(nowMs);
  const effective = await limits.effective();
  const used = await limits.monthUsage(ids, month);
  const alerts = await limits.alerts(ids, month.startMs);
  const refusals = await limits.refusals(ids, { fromMs: month.startMs, toMs: month.endMs });
  const own = await limits.list(ids);
  return workspaces.flatMap((workspace) =>
    LIMIT_TYPES.map((type): LimitStatus => {
      const limit = effective.get(workspace.id)?.find((entry) => entry.limitType === type);
      const crossed = alerts.filter(
        (alert) => alert.workspaceId === workspace.id && alert.limitType === type,
      );
      const reached = crossed.find((alert) => alert.threshold === 100);
      const refused = refusals.find(
        (entry) => entry.workspaceId === workspace.id && entry.limitType === type,
      );
      return {
        workspace_id: workspace.id,
        limit_type: type,
        limit_value: limit?.limitValue ?? null,
        limit_id:
          own.find((entry) => entry.tenant_id === workspace.id && entry.limit_type === type)?.id ??
          null,
        source: limit?.source ?? null,
        alert_thresholds: limit?.thresholds ?? [],
        used: used.get(workspace.id)?.[type] ?? 0,
        month_start: new Date(month.startMs).toISOString(),
        resets_at: new Date(month.endMs).toISOString(),
        reached_at: limit && reached ? reached.crossedAt.toISOString() : null,
        refused: refused?.refused ?? 0,
        alerts: limit
          ? crossed.map((alert) => ({
              threshold: alert.threshold,
              crossed_at: alert.crossedAt.toISOString(),
            }))
          : [],
        can_edit: workspace.canEdit,
      };
    }),
  );
}
