import { DAY_MS } from '@contracts/usage/time';
import type { UsageRecord } from '@contracts/usage/usage-schema';

/** Who a trace limit can hold besides a whole workspace. */
export type TargetScope = 'project' | 'user';

/** A project or user the limit editor offers, as the usage data names it. */
export interface LimitTarget {
  id: string;
  label: string;
}

/** How far back the picker looks for projects and users with traces. */
export const TARGET_LOOKBACK_DAYS = 730;

/**
 * The span the picker's catalog is read over: whole UTC days from `TARGET_LOOKBACK_DAYS` ago to
 * the end of today, so the query (and its cache key) stays the same all day. Over a year, the
 * usage endpoint answers a few 365-day buckets per group: a short read whatever the history.
 */
export function limitTargetWindow(nowMs: number): { startMs: number; endMs: number } {
  const endMs = Math.floor(nowMs / DAY_MS) * DAY_MS + DAY_MS;
  return { startMs: endMs - (TARGET_LOOKBACK_DAYS + 1) * DAY_MS, endMs };
}

/**
 * The projects or users of usage records grouped by `scope`, once each, by label then id; a
 * record without an id (traces of no user) is no target. A user without an e-mail is named by id.
 */
export function limitTargetsOf(records: readonly UsageRecord[], scope: TargetScope): LimitTarget[] {
  const targets = new Map<string, string>();
  for (const { dimensions } of records) {
    const id = scope === 'project' ? dimensions.project_id : dimensions.user_id;
    if (!id) continue;
    const name = scope === 'project' ? dimensions.project_name : dimensions.user_email;
    targets.set(id, name ?? id);
  }
  return [...targets]
    .map(([id, label]) => ({ id, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en') || a.id.localeCompare(b.id));
}
