import type { UsageQueryInput } from './usage-schema';

/**
 * The query string of both usage endpoints. `workspace_ids` is appended once per id (FastAPI
 * reads repeated keys; `a,b` or `workspace_ids[]=` would be rejected with 422).
 */
export function toUsageSearchParams(query: UsageQueryInput): URLSearchParams {
  const params = new URLSearchParams();
  params.set('start_time', query.start_time);
  params.set('end_time', query.end_time);
  for (const id of query.workspace_ids) params.append('workspace_ids', id);
  if (query.group_by) params.set('group_by', query.group_by);
  return params;
}
