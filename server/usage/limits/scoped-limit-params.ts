import { randomUUID } from 'node:crypto';
import { DEFAULT_ALERT_THRESHOLDS } from '@contracts/usage/usage-limits';
import type { ScopedLimitWrite } from '../store/usage-limit-store';

/**
 * The values of a project, user or spend limit's upsert, in the column order both backends
 * declare `usage_scoped_limits` (id, workspace, scope, target, type, value, extended share,
 * derived traces, derived long-lived traces, thresholds) and then whether the thresholds were
 * given: an update keeps the stored ones when not. The id is only used when the row is new;
 * derived counts are text so a bigint never passes through a float.
 */
export function scopedLimitParams(write: ScopedLimitWrite) {
  return [
    randomUUID(),
    write.tenantId,
    write.scope,
    write.targetId,
    write.limitType,
    write.limitValue,
    write.extendedShare,
    write.derived === null ? null : String(write.derived.monthly_traces),
    write.derived === null ? null : String(write.derived.monthly_longlived_traces),
    write.thresholds ?? [...DEFAULT_ALERT_THRESHOLDS],
    write.thresholds !== undefined,
  ] as const;
}
