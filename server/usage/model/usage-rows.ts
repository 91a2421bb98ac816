import {
  TRACE_TIERS,
  type TraceGroupBy,
  type UsageDimensions,
} from '@contracts/usage/usage-schema';

/** One record of a usage query: bucket, dimension value and count. */
export interface UsageRow {
  bucketMs: number;
  dimId: string | null;
  label: string | null;
  traces: number;
}

/** The JSON keys of the id and the label of each `group_by` (spec 2.1; `api_key` shows no id). */
const DIMENSION_KEYS = {
  workspace: ['workspace_id', 'workspace_name'],
  project: ['project_id', 'project_name'],
  user: ['user_id', 'user_email'],
  api_key: [null, 'api_key_short_key'],
} as const satisfies Record<
  Exclude<TraceGroupBy, 'trace_tier'>,
  [keyof UsageDimensions | null, keyof UsageDimensions]
>;

const isTier = (label: string | null) => TRACE_TIERS.find((tier) => tier === label) ?? null;

/**
 * Dimension fields of a row for `groupBy` (spec 2.1); unknown values are left out. A project also
 * names its workspace (`workspace_id`, `workspace_name`), beyond the spec: LangSmith does not,
 * and the console shows it beside the project when present (names repeat across workspaces).
 */
export function toDimensions(
  groupBy: TraceGroupBy,
  row: Pick<UsageRow, 'dimId' | 'label'>,
  workspace?: { id: string; name: string },
): UsageDimensions {
  // A tier is its own label: `{trace_tier: "longlived"}`, no id.
  if (groupBy === 'trace_tier') {
    const tier = isTier(row.label);
    return tier === null ? {} : { trace_tier: tier };
  }
  const [idKey, labelKey] = DIMENSION_KEYS[groupBy];
  const dimensions: UsageDimensions = {};
  if (idKey !== null && row.dimId !== null) dimensions[idKey] = row.dimId;
  if (row.label !== null) dimensions[labelKey] = row.label;
  if (groupBy === 'project' && workspace) {
    dimensions.workspace_id = workspace.id;
    dimensions.workspace_name = workspace.name;
  }
  return dimensions;
}
