import { paths } from '@/lib/paths';

/**
 * The usage tab showing a flow's traces: the UTC days of its window, grouped by project, in the
 * workspaces that hold them, with the flow's project focused (the chart shows it alone) when it
 * is known (the tab's URL state; see use-usage-view-params.ts).
 */
export function usageTabLink(
  fromMs: number,
  toMs: number,
  workspaceIds: string[],
  projectId: string | null = null,
): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const params = new URLSearchParams({
    period: 'custom',
    from: day(fromMs),
    to: day(toMs - 1),
    group_by: 'project',
  });
  if (workspaceIds.length > 0) params.set('workspaces', workspaceIds.join(','));
  if (projectId) params.set('focus', projectId);
  return `${paths.granularUsage}?${params.toString()}`;
}
