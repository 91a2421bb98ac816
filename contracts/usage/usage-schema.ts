import { z } from 'zod/mini';
import {
  CLOUD_USAGE_DATA_START,
  GROUP_BY_VALUES,
  TRACE_TIERS,
  type TraceTier,
} from './usage-values';

/**
 * The wire format of the usage API (spec sections 2.1-2.3 and 4.1-4.2), shared by the server and
 * the SPA. Everything the two sides exchange about usage is defined here, once; the server's
 * query validation is in usage-query-schema.ts. Written with `zod/mini` (tree-shakable): the SPA
 * parses every response with these, and the full zod API would add ~25 KB to its first load.
 */

export { CLOUD_USAGE_DATA_START, GROUP_BY_VALUES, TRACE_TIERS, type TraceTier };
export const groupBySchema = z.enum(GROUP_BY_VALUES);
export type GroupBy = z.infer<typeof groupBySchema>;

/**
 * The billing domain a usage request reads (`kind`): traces (the default) or the deployments'
 * metrics (nodes executed, agent runs, agent uptime), as LangSmith's Granular Usage bills both;
 * and, our extension, what the traced LLM runs spent (`llm_usage-schema.ts`).
 */
export const USAGE_KINDS = ['traces', 'langsmith_deployments', 'llm_usage'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/** Every `group_by` of traces: the four dimensions, and the retention tier (traces only). */
export const TRACE_GROUP_BY_VALUES = [...GROUP_BY_VALUES, 'trace_tier'] as const;
export type TraceGroupBy = (typeof TRACE_GROUP_BY_VALUES)[number];

/** Which dimension fields each `group_by` returns (spec 2.1). */
export const DIMENSION_FIELDS = {
  workspace: ['workspace_id', 'workspace_name'],
  // The server also names a project's workspace (beyond the spec; LangSmith does not).
  project: ['project_id', 'project_name'],
  user: ['user_id', 'user_email'],
  api_key: ['api_key_short_key'],
} as const satisfies Record<GroupBy, readonly string[]>;

/** What a client sends (strings, as in the URL). */
export type UsageQueryInput = {
  start_time: string;
  end_time: string;
  workspace_ids: string[];
  group_by?: TraceGroupBy;
  /** Omitted: traces. */
  kind?: UsageKind;
  /** Traces only; omitted: every tier. */
  trace_tier?: TraceTier;
  /**
   * Beyond the spec, export only: fill a project's workspace in the CSV (see
   * `CSV_CONTEXT_COLUMNS`). Omitted: the spec's file, only `group_by`'s columns filled.
   */
  include_context?: boolean;
};
export const strideSchema = z.object({ days: z.int(), hours: z.int() });
export type Stride = z.infer<typeof strideSchema>;

/**
 * Dimensions of one record. Only the fields of the request's `group_by` are present; a missing
 * value (a trace without a user, a user without an e-mail) is absent, and readers also tolerate
 * `null` from other servers. Key series by id, not by name: names repeat across workspaces.
 */
export const usageDimensionsSchema = z.object({
  workspace_id: z.nullish(z.string()),
  workspace_name: z.nullish(z.string()),
  project_id: z.nullish(z.string()),
  project_name: z.nullish(z.string()),
  user_id: z.nullish(z.string()),
  user_email: z.nullish(z.string()),
  api_key_short_key: z.nullish(z.string()),
  trace_tier: z.nullish(z.enum(TRACE_TIERS)),
});
export type UsageDimensions = z.infer<typeof usageDimensionsSchema>;

export const usageRecordSchema = z.object({
  /** Bucket start, ISO 8601 UTC. */
  time_bucket: z.iso.datetime({ offset: true }),
  dimensions: usageDimensionsSchema,
  traces: z.int().check(z.nonnegative()),
});
export type UsageRecord = z.infer<typeof usageRecordSchema>;

/** Records with zero traces are omitted; records are ordered by `time_bucket`. */
export const usageResponseSchema = z.object({
  stride: strideSchema,
  usage: z.array(usageRecordSchema),
});
export type UsageResponse = z.infer<typeof usageResponseSchema>;

/** One entry of `GET /api/v1/workspaces` (a plain array, as LangSmith returns it). */
export const workspaceSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  is_personal: z.boolean(),
  is_deleted: z.boolean(),
  read_only: z.boolean(),
  role_name: z.nullable(z.string()),
  permissions: z.array(z.string()),
  created_at: z.nullish(z.string()),
});
export type Workspace = z.infer<typeof workspaceSchema>;
export const workspacesResponseSchema = z.array(workspaceSchema);

/** The time and dimension columns every usage CSV starts with, in the order of spec table 2.3. */
export const CSV_BUCKET_AND_DIMENSION_COLUMNS = [
  'Time Bucket Start',
  'Time Bucket End',
  'Workspace ID',
  'Workspace Name',
  'Project ID',
  'Project Name',
  'User ID',
  'User Email',
  'API Key Short Key',
] as const;

/** CSV export columns of traces: exactly spec table 2.3's ten. */
export const USAGE_CSV_COLUMNS = [...CSV_BUCKET_AND_DIMENSION_COLUMNS, 'Traces'] as const;

/**
 * Beyond spec table 2.3: the retention tier, a column only of a `group_by=trace_tier` export
 * (before `Traces`), so scripts reading the spec's ten columns read every other export unchanged.
 */
export const TRACE_TIER_CSV_COLUMN = 'Trace Tier';
export type UsageCsvColumn = (typeof USAGE_CSV_COLUMNS)[number] | typeof TRACE_TIER_CSV_COLUMN;

const TIER_CSV_COLUMNS = [
  ...CSV_BUCKET_AND_DIMENSION_COLUMNS,
  TRACE_TIER_CSV_COLUMN,
  'Traces',
] as const satisfies readonly UsageCsvColumn[];

/** The traces CSV header of a `group_by`: the spec's ten columns, plus `Trace Tier` by tier. */
export function usageCsvColumns(groupBy: TraceGroupBy): readonly UsageCsvColumn[] {
  return groupBy === 'trace_tier' ? TIER_CSV_COLUMNS : USAGE_CSV_COLUMNS;
}

type CsvFieldsByColumn = Partial<Record<UsageCsvColumn, keyof UsageDimensions>>;

/** The CSV columns filled for each `group_by` (spec 2.3); the others are empty in every row. */
export const CSV_DIMENSION_COLUMNS = {
  workspace: { 'Workspace ID': 'workspace_id', 'Workspace Name': 'workspace_name' },
  project: { 'Project ID': 'project_id', 'Project Name': 'project_name' },
  user: { 'User ID': 'user_id', 'User Email': 'user_email' },
  api_key: { 'API Key Short Key': 'api_key_short_key' },
  trace_tier: { 'Trace Tier': 'trace_tier' },
} as const satisfies Record<TraceGroupBy, CsvFieldsByColumn>;

/**
 * Beyond spec 2.3, with `include_context=true` only: the columns that place a group, filled
 * besides its own. A project's workspace, as the screen shows it beside each project (project
 * names repeat across workspaces). Filled when the server names it: LangSmith does not, and
 * then the cells stay empty.
 */
export const CSV_CONTEXT_COLUMNS = {
  project: { 'Workspace ID': 'workspace_id', 'Workspace Name': 'workspace_name' },
} as const satisfies Partial<Record<TraceGroupBy, CsvFieldsByColumn>>;

/** The CSV columns a `group_by` export fills: its own, and its context when asked for. */
export function csvFilledColumns(
  groupBy: TraceGroupBy,
  options: { includeContext?: boolean } = {},
): CsvFieldsByColumn {
  const context: Partial<Record<TraceGroupBy, CsvFieldsByColumn>> = CSV_CONTEXT_COLUMNS;
  const own: CsvFieldsByColumn = CSV_DIMENSION_COLUMNS[groupBy];
  return options.includeContext ? { ...context[groupBy], ...own } : own;
}

/** FastAPI's validation error item (422). */
export const validationIssueSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  input: z.optional(z.unknown()),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** Every error body: `{detail: [...]}` for 422, `{detail: "..."}` otherwise. */
export const errorBodySchema = z.object({
  detail: z.union([z.string(), z.array(validationIssueSchema)]),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
