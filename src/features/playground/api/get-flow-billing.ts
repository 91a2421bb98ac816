import { queryOptions, useQuery } from '@tanstack/react-query';
import { usageResponseSchema, workspacesResponseSchema } from '@contracts/usage/usage-schema';
import { toHttpError } from '@/lib/http-error';

/** The console's proxy to its usage API (the embedded one when the deployment is embedded). */
const USAGE_BASE = '/_console/usage';

/** The traces a flow billed: the tracing project's traces while the flow ran. */
export interface FlowBilling {
  traces: number;
  /** Workspaces holding them, for the link to the usage tab. */
  workspaceIds: string[];
  /** The project's id when one project holds them (the usage tab focuses it), else null. */
  projectId: string | null;
  /** Root runs of the project a usage limit refused in the window (not billed, still run). */
  refused: number;
}

export interface FlowWindow {
  project: string;
  fromMs: number;
  toMs: number;
}

async function getJson(path: string, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(`${USAGE_BASE}${path}`, { signal });
  if (!response.ok) throw await toHttpError(response);
  return response.json();
}

/**
 * Traces of `project` ingested in `[fromMs, toMs)` in every workspace the console reads. Usage
 * counts go by ingestion time, so the flow's window is exactly where its traces are counted
 * (other flows running into the same project in that window would count too).
 */
export async function getFlowBilling(
  window: FlowWindow,
  signal: AbortSignal,
): Promise<FlowBilling> {
  const workspaces = workspacesResponseSchema.parse(await getJson('/workspaces', signal));
  if (workspaces.length === 0) return { traces: 0, workspaceIds: [], projectId: null, refused: 0 };
  const refused = getRefused(window, signal);
  // One query per workspace: `group_by=project` records do not say their workspace.
  const perWorkspace = await Promise.all(
    workspaces.map(async (workspace) => {
      const params = new URLSearchParams({
        start_time: new Date(window.fromMs).toISOString(),
        end_time: new Date(window.toMs).toISOString(),
        workspace_ids: workspace.id,
        group_by: 'project',
      });
      const usage = usageResponseSchema.parse(
        await getJson(`/orgs/current/billing/granular-usage?${params}`, signal),
      );
      const records = usage.usage.filter(
        (record) => record.dimensions.project_name === window.project && record.traces > 0,
      );
      return {
        id: workspace.id,
        traces: records.reduce((sum, record) => sum + record.traces, 0),
        projectIds: records.map((record) => record.dimensions.project_id ?? null),
      };
    }),
  );
  const billed = perWorkspace.filter((workspace) => workspace.traces > 0);
  // Projects are per workspace: the same name in two workspaces is two projects.
  const projectIds = new Set(billed.flatMap((workspace) => workspace.projectIds));
  const [onlyProject] = projectIds;
  return {
    traces: billed.reduce((sum, workspace) => sum + workspace.traces, 0),
    workspaceIds: billed.map((workspace) => workspace.id),
    projectId: projectIds.size === 1 ? (onlyProject ?? null) : null,
    refused: await refused,
  };
}

/**
 * Root runs of the flow's project refused by a usage limit in its window. A usage API without
 * limits (LangSmith itself behind the console) answers 404: nothing refused that we can know.
 */
async function getRefused(window: FlowWindow, signal: AbortSignal): Promise<number> {
  const params = new URLSearchParams({
    project: window.project,
    start_time: new Date(window.fromMs).toISOString(),
    end_time: new Date(window.toMs).toISOString(),
  });
  try {
    const body = await getJson(`/usage-limits/refusals?${params}`, signal);
    const refused = (body as { refused?: unknown }).refused;
    return typeof refused === 'number' ? refused : 0;
  } catch {
    return 0;
  }
}

/** Polled a few times: the deployment's SDK delivers traces in batches, shortly after the flow. */
export function flowBillingQueryOptions(window: FlowWindow) {
  return queryOptions({
    queryKey: ['playground', 'flow-billing', window],
    queryFn: ({ signal }) => getFlowBilling(window, signal),
    refetchInterval: (query) => (query.state.dataUpdateCount < 4 ? 1500 : false),
  });
}

export function useFlowBilling(window: FlowWindow) {
  return useQuery(flowBillingQueryOptions(window));
}
