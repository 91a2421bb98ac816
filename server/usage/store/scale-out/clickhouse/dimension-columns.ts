import type { GroupBy } from '@contracts/usage/usage-schema';

/**
 * Per dimension grouping, its column in ClickHouse's `traces` and `llm_runs` (named alike) and
 * whether it may be NULL.
 */
export const DIMENSION_COLUMNS = {
  workspace: { column: 'workspace_id', nullable: false },
  project: { column: 'project_id', nullable: false },
  user: { column: 'user_id', nullable: true },
  api_key: { column: 'api_key_id', nullable: true },
} as const satisfies Record<GroupBy, { column: string; nullable: boolean }>;

/** The nil UUID: the `dim_id` of a NULL value (18.16 allows no Nullable column in a sort key). */
export const NIL_UUID = "toUUID('00000000-0000-0000-0000-000000000000')";

/**
 * A grouping's value as the rollups key it, `has_dim, dim_id` (or the aliases given):
 * `has_dim = 0` is the NULL value, whose id is the nil UUID.
 */
export function dimensionColumns(groupBy: GroupBy, has = 'has_dim', id = 'dim_id'): string {
  const { column, nullable } = DIMENSION_COLUMNS[groupBy];
  return nullable
    ? `toUInt8(isNotNull(${column})) AS ${has}, ifNull(${column}, ${NIL_UUID}) AS ${id}`
    : `toUInt8(1) AS ${has}, ${column} AS ${id}`;
}
