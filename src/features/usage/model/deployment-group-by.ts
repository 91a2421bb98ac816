import type { GroupBy } from '@contracts/usage/usage-schema';

/**
 * Deployment work has no user or API key: the Deployments tab groups by project (the deployed
 * agent) when the shared grouping is project, else by workspace.
 */
export function deploymentGroupBy(groupBy: GroupBy): 'workspace' | 'project' {
  return groupBy === 'project' ? 'project' : 'workspace';
}
