import { deploymentSearchParams, useDeploymentUsage } from '../api/get-deployment-usage';
import { deploymentGroupBy } from '../model/deployment-group-by';
import { deploymentMatricesToCsv } from '../model/deployment-matrices';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { CopyCurlButton } from './copy-curl-button';
import { DomainExportButton } from './domain-tab';

/**
 * The Deployments tab's curl and CSV actions. Their data is the view's query (the same key as
 * the charts'), so the file matches the screen without a second request.
 */
export function DeploymentActions({ view }: { view: ResolvedUsageView | null }) {
  const deployments = useDeploymentUsage(view);
  const matrices = deployments.isPlaceholderData ? undefined : deployments.data;
  const groupBy = view && deploymentGroupBy(view.groupBy);
  return (
    <>
      <CopyCurlButton view={view} paramsOf={deploymentSearchParams} />
      <DomainExportButton
        view={view}
        file={
          groupBy && matrices
            ? {
                kind: 'langsmith_deployments',
                groupBy,
                toCsv: (includeContext) =>
                  deploymentMatricesToCsv(matrices, groupBy, { includeContext }),
              }
            : undefined
        }
      />
    </>
  );
}
