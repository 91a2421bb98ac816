import { randomUUID } from 'node:crypto';
import type { LimitType, ScopedLimit } from '@contracts/usage/usage-limits';
import {
  scopedStanding,
  scopedThresholdsCrossed,
  type ScopedStanding,
} from '../model/scoped-limit-standing';
import type { TracePrices } from '../model/spend-limit';
import type { ScopedAlertRow, UsageLimitStore } from '../store/usage-limit-store';

/** A project, user or spend limit with its standing and the alerts it crossed this month. */
export interface ScopedLimitMonth {
  limit: ScopedLimit;
  standing: ScopedStanding;
  alerts: ScopedAlertRow[];
}

/**
 * This month's project, user and spend limits of `workspaceIds`, each with its standing and the
 * alerts recorded for it.
 */
export async function loadScopedLimitMonth(
  limits: UsageLimitStore,
  workspaceIds: readonly string[],
  month: { startMs: number; endMs: number },
  prices: () => Promise<TracePrices>,
): Promise<ScopedLimitMonth[]> {
  const { scoped, scopedAlerts } = limits;
  if (workspaceIds.length === 0) return [];
  const list = await scoped.list(workspaceIds);
  if (list.length === 0) return [];
  const spenders = [
    ...new Set(list.filter((l) => l.limit_type === 'monthly_spend').map((l) => l.tenant_id)),
  ];
  // The plan is read only when a spend limit needs its prices (ingestion looks here often).
  const [workspaceUsed, targetUsed, alerts, tracePrices] = await Promise.all([
    limits.monthUsage(spenders, month),
    scopedAlerts.targetUsage(
      list
        .filter((limit) => limit.scope !== 'workspace')
        .map((limit) => ({ scope: limit.scope, targetId: limit.target_id })),
      month,
    ),
    scopedAlerts.alerts(workspaceIds, month.startMs),
    spenders.length > 0 ? prices() : undefined,
  ]);
  const none: Record<LimitType, number> = { monthly_traces: 0, monthly_longlived_traces: 0 };
  return list.map((limit) => ({
    limit,
    standing: scopedStanding(
      limit,
      workspaceUsed.get(limit.tenant_id) ?? none,
      targetUsed,
      tracePrices ?? { base: 0, extended: 0 },
    ),
    alerts: alerts.filter(
      (alert) =>
        alert.workspaceId === limit.tenant_id &&
        alert.scope === limit.scope &&
        alert.targetId === limit.target_id &&
        alert.limitType === limit.limit_type,
    ),
  }));
}

/** The alerts each limit crossed since the last look, to record (once) and deliver. */
export function newScopedAlerts(
  months: readonly ScopedLimitMonth[],
  monthStartMs: number,
  nowMs: number,
): ScopedAlertRow[] {
  return months.flatMap(({ limit, standing, alerts }) =>
    scopedThresholdsCrossed(limit, standing, new Set(alerts.map((alert) => alert.threshold))).map(
      (threshold) => ({
        alertId: randomUUID(),
        workspaceId: limit.tenant_id,
        scope: limit.scope,
        targetId: limit.target_id,
        limitType: limit.limit_type,
        monthStartMs,
        threshold,
        used: standing.used,
        limitValue: limit.limit_value,
        crossedAt: new Date(nowMs),
      }),
    ),
  );
}
