import type { Invoice } from '@contracts/usage/billing-schema';
import { DEFAULT_PLAN } from '@contracts/usage/pricing';
import type { Workspace } from '@contracts/usage/usage-schema';
import { addMetrics, metricsBy, zeroMetrics } from '@server/usage/model/billing-usage';
import { buildInvoice, monthSpan, type SplitGroup } from '@server/usage/model/invoice';
import type { UsageStore } from '@server/usage/store/usage-store';
import { getDimensionCatalog } from './get-dimension-catalog';

/**
 * The invoice of `month` (`YYYY-MM`, UTC) over `workspaces`: the month's counts, the plan,
 * and the names of its workspaces and projects for the split.
 */
export async function getInvoice(
  store: Pick<UsageStore, 'ledger' | 'facts'>,
  month: string,
  workspaces: readonly Workspace[],
  now: Date,
): Promise<Invoice> {
  const { start, end } = monthSpan(month);
  const [rows, plan, projects] = await Promise.all([
    store.ledger.periodCounts(start, end),
    store.ledger.plan(),
    getDimensionCatalog(store.facts, 'project'),
  ]);
  const ids = new Set(workspaces.map((workspace) => workspace.id));
  const workspaceName = new Map(
    workspaces.map((workspace) => [workspace.id, workspace.display_name]),
  );
  const projectName = new Map(projects.ids.map((id, index) => [id, projects.labels[index]]));
  const byWorkspace = metricsBy(rows, ids, (row) => row.workspaceId);
  const byProject = metricsBy(rows, ids, (row) => `${row.workspaceId}/${row.projectId}`);
  const totals = [...byWorkspace.values()].reduce(addMetrics, zeroMetrics());
  const workspaceGroups = [...byWorkspace].map(([workspaceId, metrics]): SplitGroup => ({
    workspaceId,
    workspaceName: workspaceName.get(workspaceId) ?? null,
    projectId: null,
    projectName: null,
    metrics,
  }));
  const projectGroups = [...byProject].map(([key, metrics]): SplitGroup => {
    const [workspaceId = '', projectId = ''] = key.split('/');
    return {
      workspaceId,
      workspaceName: workspaceName.get(workspaceId) ?? null,
      projectId,
      projectName: projectName.get(projectId) ?? null,
      metrics,
    };
  });
  const byName = (a: SplitGroup, b: SplitGroup) =>
    (a.workspaceName ?? a.workspaceId).localeCompare(b.workspaceName ?? b.workspaceId) ||
    (a.projectName ?? a.projectId ?? '').localeCompare(b.projectName ?? b.projectId ?? '') ||
    (a.projectId ?? '').localeCompare(b.projectId ?? '');
  return buildInvoice({
    month,
    now,
    plan: plan ?? DEFAULT_PLAN,
    totals,
    byWorkspace: workspaceGroups.sort(byName),
    byProject: projectGroups.sort(byName),
  });
}
