import { limitMonth } from '@contracts/usage/limit-period';
import { LIMIT_TYPES, type LimitStatus } from '@contracts/usage/usage-limits';
import type { TracePrices } from '../model/spend-limit';
import type { UsageLimitStore } from '../store/usage-limit-store';
import { loadScopedLimitMonth } from './scoped-alerts';

/**
 * This month's standing of each limit type of each workspace: the limit in force (or null), the
 * count against it, when it was reached, refusals and the alerts crossed; then each project, user
 * and spend limit of those workspaces (spend in dollars at `prices`). What the tab draws.
 */
export async function loadLimitStatus(
  limits: UsageLimitStore,
  workspaces: readonly { id: string; canEdit: boolean }[],
  nowMs: number,
  prices: () => Promise<TracePrices>,
): Promise<LimitStatus[]> {
  const ids = workspaces.map((workspace) => workspace.id);
  const month = limitMonth(nowMs);
  const effective = await limits.effective();
  const used = await limits.monthUsage(ids, month);
  const alerts = await limits.alerts(ids, month.startMs);
  const refusals = await limits.refusals(ids, { fromMs: month.startMs, toMs: month.endMs });
  const own = await limits.list(ids);
  const scoped = await loadScopedLimitMonth(limits, ids, month, prices);
  const scopedRefusals =
    scoped.length > 0
      ? await limits.scopedAlerts.refusals(ids, { fromMs: month.startMs, toMs: month.endMs })
      : [];
  const period = {
    month_start: new Date(month.startMs).toISOString(),
    resets_at: new Date(month.endMs).toISOString(),
  };
  const workspaceLimits = workspaces.flatMap((workspace) =>
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
        scope: 'workspace',
        target_id: workspace.id,
        limit_type: type,
        limit_value: limit?.limitValue ?? null,
        limit_id:
          own.find((entry) => entry.tenant_id === workspace.id && entry.limit_type === type)?.id ??
          null,
        source: limit?.source ?? null,
        alert_thresholds: limit?.thresholds ?? [],
        used: used.get(workspace.id)?.[type] ?? 0,
        ...period,
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
  const canEdit = new Map(workspaces.map((workspace) => [workspace.id, workspace.canEdit]));
  const scopedLimits = scoped.map(({ limit, standing, alerts: crossed }): LimitStatus => {
    const reached = crossed.find((alert) => alert.threshold === 100);
    return {
      workspace_id: limit.tenant_id,
      scope: limit.scope,
      target_id: limit.target_id,
      limit_type: limit.limit_type,
      limit_value: limit.limit_value,
      limit_id: limit.id,
      source: 'own',
      alert_thresholds: limit.alert_thresholds,
      used: standing.used,
      ...period,
      reached_at: reached ? reached.crossedAt.toISOString() : null,
      refused: scopedRefusals
        .filter(
          (entry) =>
            entry.workspaceId === limit.tenant_id &&
            entry.scope === limit.scope &&
            entry.targetId === limit.target_id &&
            entry.limitType === limit.limit_type,
        )
        .reduce((sum, entry) => sum + entry.refused, 0),
      alerts: crossed.map((alert) => ({
        threshold: alert.threshold,
        crossed_at: alert.crossedAt.toISOString(),
      })),
      can_edit: canEdit.get(limit.tenant_id) ?? false,
    };
  });
  return [...workspaceLimits, ...scopedLimits];
}
