import type { TraceGroupBy as GroupBy } from '@contracts/usage/usage-schema';
import { TIER_IDS } from '@server/usage/model/trace-tiers';

/**
 * The two retention tiers as a dimension table: fixed ids, the tier as label. A trace's tier
 * is a column of `traces` (`longlived`, or `shortlived`, the default), not a table.
 */
const TIER_TABLE = `(SELECT * FROM (VALUES ('${TIER_IDS.longlived}'::UUID, 'longlived'),
  ('${TIER_IDS.shortlived}'::UUID, 'shortlived')) tiers(id, tier))`;
/** A trace's tier as its dimension id (the `trace_tier` grouping of the rollups counts by it). */
export const TIER_COLUMN = `CASE trace_tier WHEN 'longlived' THEN '${TIER_IDS.longlived}'::UUID
  ELSE '${TIER_IDS.shortlived}'::UUID END`;

/** Per group_by: the trace column holding the dimension id and where its label comes from. */
export const DIMENSIONS = {
  workspace: { column: 'workspace_id', table: 'workspaces', label: 'display_name' },
  project: { column: 'project_id', table: 'projects', label: 'name' },
  user: { column: 'user_id', table: 'users', label: 'email' },
  api_key: { column: 'api_key_id', table: 'api_keys', label: 'short_key' },
  trace_tier: { column: TIER_COLUMN, table: TIER_TABLE, label: 'tier' },
} as const satisfies Record<GroupBy, { column: string; table: string; label: string }>;

/** The dimension table of `groupBy` with each value's position in output order. */
export function positionsSql(groupBy: GroupBy): string {
  const dim = DIMENSIONS[groupBy];
  return `SELECT id, ${dim.label} AS label,
      (row_number() OVER (ORDER BY ${dim.label} NULLS LAST, id) - 1)::INTEGER AS position
    FROM ${dim.table}`;
}

/**
 * Every value of the dimension table of `groupBy` as one JSON text, `[[id, label], …]` in
 * output order (by label, then id; unlabelled values last, by id): one string to decode
 * instead of two per value. `label` may be null.
 */
export function buildDimensionLabelsSql(groupBy: GroupBy): string {
  return `SELECT to_json(coalesce(list([id::VARCHAR, label] ORDER BY position), []))::VARCHAR
    FROM (${positionsSql(groupBy)})`;
}

/**
 * A fingerprint of the dimension table of `groupBy`: its row count and the XOR of
 * `hash(id, label)` over its rows (ids are unique, so no two rows cancel out), as one VARCHAR.
 * A project's fingerprint also covers the workspaces table: its records name their workspace.
 */
export function buildDimensionFingerprintSql(groupBy: GroupBy): string {
  if (groupBy === 'project') {
    // Two tables, two fingerprints: a join under bit_xor missed a renamed workspace in a test.
    return `SELECT (SELECT count(*)::VARCHAR || ':' ||
          coalesce(bit_xor(hash(id, name, workspace_id))::VARCHAR, '') FROM projects)
        || '|' || (SELECT count(*)::VARCHAR || ':' ||
          coalesce(bit_xor(hash(id, display_name))::VARCHAR, '') FROM workspaces)`;
  }
  const dim = DIMENSIONS[groupBy];
  return `SELECT count(*)::VARCHAR || ':' || coalesce(bit_xor(hash(id, ${dim.label}))::VARCHAR, '')
    FROM ${dim.table}`;
}

/** Every project's workspace as one JSON text, `[[project id, workspace id, name], …]`. */
export function buildProjectWorkspacesSql(): string {
  return `SELECT to_json(coalesce(list([p.id::VARCHAR, w.id::VARCHAR, w.display_name]), []))::VARCHAR
    FROM projects p JOIN workspaces w ON w.id = p.workspace_id`;
}
