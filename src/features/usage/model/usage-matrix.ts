import type { BucketGrid } from '@contracts/usage/bucket-grid';
import type { GroupBy, UsageDimensions, UsageRecord } from '@contracts/usage/usage-schema';

/** One group of the chart and table (a workspace, project, user or API key). */
export interface UsageSeries {
  /** Stable identity: the dimension's id, never its name (names repeat across workspaces). */
  key: string;
  label: string;
  /** The record had no value for the dimension (e.g. a trace without a user). */
  unknown: boolean;
  /** The group's dimension fields as the API sent them (for the CSV columns). */
  dimensions: UsageDimensions;
}

/**
 * Usage laid out for the screen: every bucket of the range (zero-filled) and, per group, its
 * count in each bucket. Built by summing records into the screen's buckets, which also
 * re-buckets finer server buckets into coarser ones.
 */
export interface UsageMatrix {
  /** The screen's buckets: the view's range at the view's stride. */
  grid: BucketGrid;
  /** `grid.starts()`, kept for the chart's rows. */
  buckets: number[];
  series: UsageSeries[];
  /** `values.get(key)[i]` = traces of that group in `buckets[i]`. */
  values: Map<string, number[]>;
  totals: Map<string, number>;
  bucketTotals: number[];
  total: number;
}

const UNKNOWN_LABELS: Record<GroupBy, string> = {
  workspace: 'Unknown workspace',
  project: 'Unknown project',
  user: 'Unknown user',
  api_key: 'Unknown API key',
};

/** Identity and display name of a record's group. */
export function describeGroup(
  dimensions: UsageDimensions,
  groupBy: GroupBy,
): Omit<UsageSeries, 'label' | 'dimensions'> & { name: string | null } {
  const [id, name] = {
    workspace: [dimensions.workspace_id, dimensions.workspace_name],
    project: [dimensions.project_id, dimensions.project_name],
    user: [dimensions.user_id, dimensions.user_email],
    api_key: [dimensions.api_key_short_key, dimensions.api_key_short_key],
  }[groupBy];
  if (!id) return { key: `unknown:${groupBy}`, name: null, unknown: true };
  return { key: id, name: name ?? null, unknown: false };
}

function labelFor(group: ReturnType<typeof describeGroup>, groupBy: GroupBy): string {
  if (group.unknown) return UNKNOWN_LABELS[groupBy];
  if (group.name) return group.name;
  // A user without an e-mail is still a known user: show which one.
  return groupBy === 'user' ? `User ${group.key.slice(0, 8)} (no email)` : group.key;
}

export function buildUsageMatrix(
  records: readonly UsageRecord[],
  grid: BucketGrid,
  groupBy: GroupBy,
): UsageMatrix {
  const buckets = grid.starts();
  const groups = new Map<
    string,
    ReturnType<typeof describeGroup> & { dimensions: UsageDimensions }
  >();
  const values = new Map<string, number[]>();
  const bucketTotals = buckets.map(() => 0);

  for (const record of records) {
    const index = grid.indexOf(Date.parse(record.time_bucket));
    if (index < 0) continue;
    const group = describeGroup(record.dimensions, groupBy);
    let row = values.get(group.key);
    if (!row) {
      row = buckets.map(() => 0);
      values.set(group.key, row);
      groups.set(group.key, { ...group, dimensions: record.dimensions });
    }
    row[index] = (row[index] ?? 0) + record.traces;
    bucketTotals[index] = (bucketTotals[index] ?? 0) + record.traces;
  }

  const totals = new Map([...values].map(([key, row]) => [key, row.reduce((a, b) => a + b, 0)]));
  const series = disambiguate(
    [...groups.values()].map((group) => ({
      key: group.key,
      unknown: group.unknown,
      dimensions: group.dimensions,
      label: labelFor(group, groupBy),
    })),
  );
  return {
    grid,
    buckets,
    series,
    values,
    totals,
    bucketTotals,
    total: bucketTotals.reduce((a, b) => a + b, 0),
  };
}

/** Two projects both called "default" get their id's start appended, so neither hides. */
function disambiguate(series: UsageSeries[]): UsageSeries[] {
  const counts = new Map<string, number>();
  for (const item of series) counts.set(item.label, (counts.get(item.label) ?? 0) + 1);
  return series.map((item) =>
    (counts.get(item.label) ?? 0) > 1 && !item.unknown
      ? { ...item, label: `${item.label} (${item.key.slice(0, 8)})` }
      : item,
  );
}
