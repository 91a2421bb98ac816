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
  // The default domain and "every tier" are sent as nothing, so a traces link stays as it was.
  if (query.kind && query.kind !== 'traces') params.set('kind', query.kind);
  if (query.trace_tier) params.set('trace_tier', query.trace_tier);
  // Our extension (the export's workspace context): sent only when asked for, as `true`.
  if (query.include_context) params.set('include_context', 'true');
  return params;
}
